/**
 * BENCH_ONLY=on-demand: sessions created as an agent creates them, with default flags: spaced out, then many at
 * once.
 */
import type { Section } from '../section.js';
import { STACK, startServer, timed, waitForWarm } from '../server.js';
import type { ResultTable } from '../table.js';

/** Sessions on demand, default flags: an agent creating 5 sessions 3 s apart, then 10 at once on a fresh server. */
export async function sessionsOnDemand(table: ResultTable): Promise<void> {
  const cell = { code: 'print(6*7)' };
  const server = await startServer([], STACK);
  await waitForWarm(server, 2);
  const creates: number[] = [];
  const firstCells: number[] = [];
  for (let i = 0; i < 5; i++) {
    const [ms, created] = await timed(() => server.call('create_session'));
    creates.push(ms);
    const [cellMs] = await timed(() => server.call('execute_code', { session_id: created.session_id, ...cell }));
    firstCells.push(cellMs);
    if (i < 4) await new Promise((r) => setTimeout(r, 3000));
  }
  await server.close();
  const note = `each create ${creates.map((v) => v.toFixed(0)).join(', ')} ms; worst ${Math.max(...creates).toFixed(0)} ms`;
  table.record(
    'sessions on demand: 5 create_session 3 s apart (default flags, legacy stack, process)',
    creates,
    'ms',
    '< 50 ms median, < 2 s worst',
    note,
  );
  table.record('sessions on demand: print(6*7) right after each of those creates', firstCells, 'ms');
  const burst = await startServer([], STACK);
  await waitForWarm(burst, 2);
  const [, times] = await timed(() =>
    Promise.all(
      Array.from({ length: 10 }, async () => {
        const [ms, created] = await timed(() => burst.call('create_session'));
        await burst.call('execute_code', { session_id: created.session_id, ...cell });
        return ms;
      }),
    ),
  );
  await burst.close();
  table.record(
    'sessions on demand: 10 create_session at once (default flags), each',
    times,
    'ms',
    'all within one cold boot',
    `slowest ${Math.max(...times).toFixed(0)} ms`,
  );
}

export const section: Section = { name: 'on-demand', inFullRun: true, run: ({ table }) => sessionsOnDemand(table) };
