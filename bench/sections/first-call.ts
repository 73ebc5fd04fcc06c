/**
 * BENCH_ONLY=first-call: the first call after the server starts, from its spawn.
 */
import type { Section } from '../section.js';
import { type Era, QUICK, STACK, startServer, timed } from '../server.js';
import type { ResultTable } from '../table.js';

/**
 * The first execute_code after the server starts (from the spawn of `node dist/src/cli.js`), and server_info then,
 * with a 2025-era client (initialize) or a 2026-07-28 one (no initialize: its first request opens the connection).
 */
export async function firstCall(table: ResultTable, era: Era = '2025-11-25'): Promise<void> {
  const firsts: number[] = [];
  const infos: number[] = [];
  for (let i = 0; i < (QUICK ? 1 : 3); i++) {
    const started = performance.now();
    const server = await startServer([], STACK, era);
    const [infoMs] = await timed(() => server.call('server_info'));
    infos.push(infoMs);
    const reply = await server.call('execute_code', { code: 'print(6*7)' });
    if (reply.stdout !== '42\n') throw new Error('wrong output');
    firsts.push(performance.now() - started);
    await server.close();
  }
  const client = era === '2026-07-28' ? ', 2026-07-28 client' : '';
  table.record(`first execute_code print(6*7) after server start (default flags, from spawn${client})`, firsts, 'ms', '< 3000 ms');
  table.record(`server_info right after server start${client}`, infos, 'ms', 'at once');
}

export const section: Section = {
  name: 'first-call',
  inFullRun: true,
  run: async ({ table }) => {
    await firstCall(table);
    await firstCall(table, '2026-07-28');
  },
};
