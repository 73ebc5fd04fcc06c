/**
 * BENCH_ONLY=round-trip: the round trip of a trivial execute_code over stdio, in both isolations, and with a
 * 2026-07-28 client (the SDK's per-request `_meta` envelope, no initialize) with process isolation.
 */
import type { Section } from '../section.js';
import { type Era, type Isolation, QUICK, startServer, timed, waitForWarm } from '../server.js';
import type { ResultTable } from '../table.js';

/**
 * 2. Round trip of execute_code "1+1" in a warm session: the first calls of a new server, then the steady state.
 * Why two rows: the server's and the client's JavaScript is compiled by V8's optimizing tiers during the first
 * ~1,500 calls (measured: 9-22 of the first 500 calls over 3 ms against 2-5 per 500 after 2,000, with the session
 * warmed up either way), which a server that has been running a while has behind it.
 */
/** A new server with a warm session whose pool and warm-ups are done, and a timer of `n` calls of `1+1` on it. */
async function quietServer(
  isolation: Isolation,
  era: Era,
): Promise<{ calls: (n: number) => Promise<number[]>; close: () => Promise<void> }> {
  const server = await startServer(['--warm-sessions', '1', '--isolation', isolation], 'none', era);
  const { session_id } = await server.call('create_session');
  // Steady state of the session too: the pool's replacement boot (1-2 s of CPU on another core) would otherwise
  // overlap the first calls (measured with it overlapping, 126-140 of 2,000 calls took over 3 ms, against 45-59 once it
  // had finished), and so would the two sessions' warm-ups (0.3 s each, after the boot).
  await waitForWarm(server, 1);
  const until = Date.now() + 60_000;
  while (server.logs.filter((line) => line.includes('warmed up:')).length < 2) {
    if (Date.now() > until) throw new Error('the sessions did not warm up');
    await new Promise((r) => setTimeout(r, 50));
  }
  const calls = async (n: number) => {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const [ms, reply] = await timed(() => server.call('execute_code', { session_id, code: '1+1' }));
      if (reply.result !== '2') throw new Error('wrong result');
      times.push(ms);
    }
    return times;
  };
  return { calls, close: () => server.close() };
}

export async function roundTrip(table: ResultTable, isolation: Isolation, era: Era = '2025-11-25'): Promise<void> {
  const server = await quietServer(isolation, era);
  const first = await server.calls(QUICK ? 300 : 1500);
  const steady = await server.calls(QUICK ? 300 : 2000);
  await server.close();
  // The same again on a second new server, from this client, whose own code is warm by now: what is left of the
  // first row's tail is the new server's (and its session's), not the bench client's.
  const second = await quietServer(isolation, era);
  const secondFirst = await second.calls(first.length);
  await second.close();
  const label = `stdio + SDK client, ${isolation}${era === '2026-07-28' ? ', 2026-07-28 client' : ''}`;
  table.record(
    `execute_code "1+1" round trip, the first ${first.length} calls of a new server (${label})`,
    first,
    'ms',
    undefined,
    'the bench client new too',
    true,
  );
  table.record(
    `execute_code "1+1" round trip, steady state: the next ${steady.length} (${label})`,
    steady,
    'ms',
    'p50 < 0.8 ms, p99 < 3 ms',
    undefined,
    true,
  );
  table.record(
    `execute_code "1+1" round trip, the first ${secondFirst.length} calls of a second new server (${label})`,
    secondFirst,
    'ms',
    undefined,
    `the bench client warm (${first.length + steady.length} calls on the first server)`,
    true,
  );
}

export const section: Section = {
  name: 'round-trip',
  inFullRun: true,
  run: async ({ table }) => {
    await roundTrip(table, 'process');
    await roundTrip(table, 'thread');
    await roundTrip(table, 'process', '2026-07-28');
  },
};
