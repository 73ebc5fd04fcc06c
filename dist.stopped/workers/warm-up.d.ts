/**
 * A session warms its code paths up while it waits in the pool: it runs trivial cells in a scratch namespace
 * (workers/harness.py, `_session_for`), so that V8 has compiled the hot paths of a call (the interpreter's eval loop
 * and the harness in WebAssembly, the worker's JavaScript) with its optimizing tiers before an agent's first calls,
 * instead of during them.
 *
 * Why: measured on a fresh session from the pool (`1+1` over stdio, process isolation, calls counted 500 at a time),
 * the first 2,000 calls were the slow ones: 14-24 per 500 over 2 ms against 1-5 after 3,000 calls, and the worker's
 * own time per call fell from 0.37 to 0.22 ms over the same calls. With 2,500 cells run first it was 0.24 ms from
 * the first call.
 *
 * The cells run a few at a time through the worker's queue, between requests: a request that arrives meanwhile waits
 * for at most one turn (CELLS_PER_TURN cells, a few milliseconds), and the warm-up stops for good at the first
 * request of an agent (the session is in use; warming it further would only take CPU from it).
 */
import type { OutputLimits } from '../src/contract.js';
import type { SerialWork } from './preloader.js';
/** What each warm-up cell runs: the commonest call, an expression whose value comes back. */
export declare const WARM_UP_CELL = "1+1";
export declare const WARM_UP_LIMITS: OutputLimits;
export interface WarmUpSteps {
    /** Runs one scratch cell. */
    runCell(): Promise<unknown>;
    /** True once the warm-up must stop (an agent's request arrived, or the session ended). */
    stop(): boolean;
    work: SerialWork;
    /** One turn of the event loop, so that a request that arrived during a turn is queued before the next. */
    yieldNow(): Promise<void>;
}
/** Runs up to `cells` warm-up cells; resolves to how many ran. */
export declare function warmUp(cells: number, steps: WarmUpSteps): Promise<number>;
