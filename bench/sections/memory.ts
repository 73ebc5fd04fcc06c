/**
 * BENCH_ONLY=memory: memory of idle sessions (RSS and PSS of the process tree) and of the idle server with its
 * default warm pool.
 */
import { pssMb, rssMb } from '../process-memory.js';
import type { Section } from '../section.js';
import { type Isolation, QUICK, STACK, startServer, waitForWarm } from '../server.js';
import { log, type ResultTable } from '../table.js';

/** 5. Memory per idle session, and how many fit in 8 GB. */
export async function memory(table: ResultTable, preload: string, label: string, isolation: Isolation): Promise<void> {
  // At most 8 sessions are made; 1024 MB each (an idle scientific session is about 500) keeps them within the default
  // memory budget (--max-total-memory-mb) on a 24 GB machine: 8 × 1024 MB + the server's heap limit.
  const server = await startServer(
    ['--warm-sessions', '0', '--max-sessions', '8', '--max-session-memory-mb', '1024', '--isolation', isolation],
    preload,
  );
  await new Promise((r) => setTimeout(r, 500));
  const base = rssMb(server.pid);
  const basePss = pssMb(server.pid);
  const k = QUICK ? 2 : preload === 'none' ? 8 : 4;
  for (let i = 0; i < k; i++) {
    const { session_id } = await server.call('create_session');
    // Sessions are handed out before their preload is imported: this waits for it (or imports it now).
    if (preload !== 'none') await server.call('execute_code', { session_id, code: `import ${preload}\nimport matplotlib.pyplot` });
  }
  await new Promise((r) => setTimeout(r, 1000));
  const total = rssMb(server.pid);
  const totalPss = pssMb(server.pid);
  await server.close();
  const per = (total - base) / k;
  const perPss = (totalPss - basePss) / k;
  table.push({
    metric: `RSS per idle session (${label}, ${isolation})`,
    p50: per,
    p95: null,
    n: k,
    unit: 'MB',
    ...(preload === 'none' ? {} : { target: '≤ 250 MB' }),
    note: `server alone ${base.toFixed(0)} MB; ${k} sessions ${total.toFixed(0)} MB`,
  });
  table.push({
    metric: `PSS per idle session (${label}, ${isolation})`,
    p50: perPss,
    p95: null,
    n: k,
    unit: 'MB',
    note: 'shared pages (node binary, libraries) counted once across processes',
  });
  table.push({
    metric: `idle sessions in 8 GB (${label}, ${isolation})`,
    p50: Math.floor((8192 - base) / per),
    p95: null,
    n: k,
    unit: 'sessions',
    target: '≥ 30',
    note: `by RSS; by PSS ${Math.floor((8192 - basePss) / perPss)}`,
  });
  log(`memory ${label}, ${isolation}: ${per.toFixed(1)} MB RSS, ${perPss.toFixed(1)} MB PSS per session`);
}

/** The server with default flags and its warm pool, idle: what an operator pays before any agent calls. */
export async function idleServer(table: ResultTable): Promise<void> {
  const server = await startServer([], STACK);
  await waitForWarm(server, 2, true);
  // Idle: long enough for V8's memory reducer (it starts 8 s after the last allocation burst).
  await new Promise((r) => setTimeout(r, 12_000));
  const rss = rssMb(server.pid);
  const pss = pssMb(server.pid);
  await server.close();
  table.push({
    metric: 'server idle with the default warm pool (default flags, scientific stack preloaded, process)',
    p50: rss,
    p95: null,
    n: 1,
    unit: 'MB',
    target: '≤ 600 MB',
    note: `RSS of the process tree, server and 2 warm sessions with the stack imported; PSS ${pss.toFixed(0)} MB`,
  });
  log(`idle server with its pool: ${rss.toFixed(0)} MB RSS, ${pss.toFixed(0)} MB PSS`);
}

export const section: Section = {
  name: 'memory',
  inFullRun: true,
  run: async ({ table, full }) => {
    // Thread isolation only in a full run: BENCH_ONLY=memory measures the default isolation, in half the time.
    await memory(table, 'none', 'modern, no preload', 'process');
    if (full) await memory(table, 'none', 'modern, no preload', 'thread');
    await memory(table, STACK, 'legacy, scientific stack', 'process');
    if (full) await memory(table, STACK, 'legacy, scientific stack', 'thread');
    await idleServer(table);
  },
};
