/**
 * BENCH_ONLY=parallelism: whether two sessions run on two cores: CPU-bound cells in parallel against one after the
 * other.
 */
import type { Section } from '../section.js';
import { startServer, timed, waitForWarm } from '../server.js';
import { log, type ResultTable } from '../table.js';

/** 6. Two CPU-bound sessions in parallel vs one after the other. */
export async function parallelism(table: ResultTable): Promise<void> {
  const server = await startServer(['--warm-sessions', '2'], 'none');
  const [a, b] = [await server.call('create_session'), await server.call('create_session')];
  // The pool refills in the background; let it finish so that it does not compete for the cores.
  await waitForWarm(server, 2);
  const code = 'total = 0\nfor i in range(8_000_000):\n    total += i * i\ntotal';
  const run = (s: Record<string, any>) => server.call('execute_code', { session_id: s.session_id, code, timeout_seconds: 120 });
  await run(a);
  const [sequential] = await timed(async () => {
    await run(a);
    await run(b);
  });
  const [parallel] = await timed(() => Promise.all([run(a), run(b)]));
  await server.close();
  table.push({
    metric: 'two CPU-bound sessions: sequential / parallel',
    p50: sequential / parallel,
    p95: null,
    n: 1,
    unit: '× speed-up',
    target: '≥ 1.8',
    note: `sequential ${sequential.toFixed(0)} ms, parallel ${parallel.toFixed(0)} ms`,
  });
  log(`speed-up ${(sequential / parallel).toFixed(2)}`);
}

export const section: Section = { name: 'parallelism', inFullRun: true, run: ({ table }) => parallelism(table) };
