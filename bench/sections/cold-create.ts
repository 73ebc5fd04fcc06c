/**
 * BENCH_ONLY=cold-create: create_session with the warm pool disabled: what a session costs to boot.
 */
import type { Section } from '../section.js';
import { QUICK, STACK, startServer, timed } from '../server.js';
import type { ResultTable } from '../table.js';

/** 1. create_session with the pool disabled. */
export async function coldCreate(table: ResultTable, preload: string, label: string): Promise<void> {
  const server = await startServer(['--warm-sessions', '0'], preload);
  const times: number[] = [];
  const n = QUICK ? 2 : preload === 'none' ? 5 : 3;
  for (let i = 0; i < n; i++) {
    const [ms, created] = await timed(() => server.call('create_session'));
    times.push(ms);
    await server.call('close_session', { session_id: created.session_id });
  }
  await server.close();
  table.record(`create_session, cold (${label})`, times, 'ms');
}

export const section: Section = {
  name: 'cold-create',
  inFullRun: true,
  run: async ({ table }) => {
    await coldCreate(table, 'none', 'modern, no preload');
    await coldCreate(table, STACK, 'legacy, scientific stack');
  },
};
