/**
 * Priming: a session compiles its hot code paths while it waits, before an agent's first calls. It runs trivial cells
 * in a scratch namespace (workers/python/harness.py, `_session_for`), so that V8 has compiled the hot paths of a call
 * (the interpreter's eval loop and the harness in WebAssembly, the worker's JavaScript) with its optimizing tiers
 * before an agent's first calls, instead of during them. (Not to be confused with the warm pool, the sessions booted
 * ahead: src/sessions/warm-pool.ts. A pooled session is primed; so is one booted for an agent, until its first call.)
 *
 * Why: measured on a fresh session from the pool (`1+1` over stdio, process isolation, calls counted 500 at a time),
 * the first 2,000 calls were the slow ones: 14-24 per 500 over 2 ms against 1-5 after 3,000 calls, and the worker's
 * own time per call fell from 0.37 to 0.22 ms over the same calls. With priming cells run first (PRIME_CELLS in
 * src/sessions/warm-pool.ts) it was 0.24 ms from the first call; figures in docs/benchmarks.md.
 *
 * The cells run a few at a time through the worker's queue, between requests: a request that arrives meanwhile waits
 * for at most one turn (CELLS_PER_TURN cells, a few milliseconds), and priming stops for good at the first request of
 * an agent (the session is in use; priming it further would only take CPU from it).
 */
import type { OutputLimits } from '../../src/wire/contract.js';
import type { SerialWork } from './preloader.js';

/** What each priming cell runs: the commonest call, an expression whose value comes back. */
export const PRIME_CELL = '1+1';
export const PRIME_LIMITS: OutputLimits = { stdout: 1000, stderr: 1000, result: 1000, traceback: 1000 };
/** The priming cells' file name (never seen by the user: the scratch namespace keeps no source). */
export const PRIME_FILENAME = '<prime>';
/** Cells per turn of the worker's queue. */
const CELLS_PER_TURN = 10;

export interface PrimeSteps {
  /** Runs one scratch cell. */
  runCell(): Promise<unknown>;
  /** True once priming must stop (an agent's request arrived, or the session ended). */
  stop(): boolean;
  work: SerialWork;
  /**
   * One turn of the event loop, so that a request that arrived during a turn is queued before the next; and, while
   * the server holds background work (a call an agent waits on runs, here or in another session), until it lets go.
   */
  betweenSteps(): Promise<void>;
}

/** Runs up to `cells` priming cells; resolves to how many ran. */
export async function prime(cells: number, steps: PrimeSteps): Promise<number> {
  let ran = 0;
  while (ran < cells && !steps.stop()) {
    await steps.betweenSteps();
    ran += await steps.work.run(async () => {
      let turn = 0;
      while (turn < CELLS_PER_TURN && ran + turn < cells && !steps.stop()) {
        await steps.runCell();
        turn++;
      }
      return turn;
    });
  }
  return ran;
}
