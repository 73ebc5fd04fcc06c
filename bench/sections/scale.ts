/**
 * BENCH_ONLY=scale: the scale curve: several sessions running a numpy workload at once.
 */
import { rssMb } from '../process-memory.js';
import type { Section } from '../section.js';
import { QUICK, startServer, timed } from '../server.js';
import { log, type ResultTable } from '../table.js';

/** Scale curve: k sessions each running a numpy workload at once (preload numpy): wall time and memory. */
export async function scaleCurve(table: ResultTable): Promise<void> {
  const code =
    'import numpy as np\na = np.random.default_rng(1).random((400, 400)) if hasattr(np.random, "default_rng") else np.random.rand(400, 400)\nfor _ in range(5):\n    a = (a @ a) / a.sum()\nfloat(a.sum())';
  for (const k of QUICK ? [1, 4] : [1, 4, 16]) {
    // 16 sessions of up to 1024 MB + the server's heap limit fit the default memory budget of a 24 GB machine.
    const server = await startServer(['--warm-sessions', '0', '--max-sessions', String(k), '--max-session-memory-mb', '1024'], 'numpy');
    const ids = await Promise.all(Array.from({ length: k }, async () => (await server.call('create_session')).session_id as string));
    // Numpy imported in each first (its load is not the workload).
    await Promise.all(ids.map((session_id) => server.call('execute_code', { session_id, code: 'import numpy' })));
    const [ms] = await timed(() =>
      Promise.all(ids.map((session_id) => server.call('execute_code', { session_id, code, timeout_seconds: 300 }))),
    );
    const rss = rssMb(server.pid);
    await server.close();
    table.push({
      metric: `scale: ${k} session(s) running a numpy workload at once (legacy, numpy)`,
      p50: ms,
      p95: null,
      n: k,
      unit: 'ms',
      note: `RSS of server + sessions ${rss.toFixed(0)} MB`,
    });
    log(`scale ${k}: ${ms.toFixed(0)} ms, ${rss.toFixed(0)} MB`);
  }
}

export const section: Section = { name: 'scale', inFullRun: true, run: ({ table }) => scaleCurve(table) };
