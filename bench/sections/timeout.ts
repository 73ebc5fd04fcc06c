/**
 * BENCH_ONLY=timeout: how soon a cell past its deadline is answered.
 */
import type { Section } from '../section.js';
import { QUICK, startServer, timed, waitForWarm } from '../server.js';
import { log, type ResultTable } from '../table.js';

/** 4. Time from the deadline to the reply: interruptible loop, and a loop that ignores interrupts. */
export async function timeoutLatency(table: ResultTable): Promise<void> {
  const server = await startServer(['--warm-sessions', '1', '--interrupt-grace', '500'], 'none');
  const interruptible: number[] = [];
  const terminated: number[] = [];
  const { session_id } = await server.call('create_session');
  for (let i = 0; i < (QUICK ? 3 : 10); i++) {
    const [ms, reply] = await timed(() => server.call('execute_code', { session_id, code: 'while True: pass', timeout_seconds: 0.5 }));
    if (reply.error?.type !== 'TimeoutError') throw new Error('expected a timeout');
    interruptible.push(ms - 500);
  }
  for (let i = 0; i < (QUICK ? 2 : 4); i++) {
    await waitForWarm(server, 1);
    const fresh = await server.call('create_session');
    const code = 'while True:\n    try:\n        while True: pass\n    except KeyboardInterrupt:\n        pass';
    const [ms] = await timed(() => server.call('execute_code', { session_id: fresh.session_id, code, timeout_seconds: 0.5 }));
    terminated.push(ms - 500);
  }
  await server.close();
  table.record('timeout: deadline → reply, interruptible loop', interruptible, 'ms', '< 100 ms');
  log(`timeout: interruptible loop, each (ms after the deadline): ${interruptible.map((ms) => ms.toFixed(0)).join(', ')}`);
  table.record('timeout: deadline → reply, worker terminated (grace 500 ms)', terminated, 'ms', undefined, 'grace period included');
}

export const section: Section = { name: 'timeout', inFullRun: true, run: ({ table }) => timeoutLatency(table) };
