/**
 * How the worker calls the harness (workers/python/harness.py): one op of the contract as JSON text in, JSON text
 * out (user input travels as data, never pasted into Python source), and a reply that is not JSON text means the
 * interpreter is gone.
 */
import type { HarnessOp, HarnessReplyOf, HarnessRequestOf } from '../../src/wire/contract.js';
import { fatalReason } from './realm/fatal-reason.js';
import { WorkerCrash } from './worker-errors.js';

/** Calls the harness with one op of the contract (src/wire/contract.ts, harnessRequestSchemas). */
export type Harness = <K extends HarnessOp>(op: K, fields: Omit<HarnessRequestOf<K>, 'op'>) => HarnessReplyOf<K>;

/**
 * The harness's replies are checked by the supervisor (they come from the user's realm, which can rebind the
 * harness's functions); here they are only parsed, typed by the contract.
 */
export function bindHarness(entry: (json: string) => string): Harness {
  return (op, fields) => parseHarnessReply(runOrCrash(() => entry(JSON.stringify({ op, ...fields })))) as HarnessReplyOf<typeof op>;
}

/**
 * The harness always answers with JSON text. Anything else means the interpreter itself is gone (a
 * Pyodide fatal error, `os._exit`, a signal): report the worker as crashed so the host ends the session
 * with a clear error instead of failing every later call.
 */
function parseHarnessReply(reply: unknown): unknown {
  if (typeof reply !== 'string')
    throw new WorkerCrash('The Python interpreter stopped (fatal error or exit); the session cannot continue.');
  return JSON.parse(reply);
}

/**
 * `os._exit()`, `os.kill(os.getpid(), …)` and friends end Emscripten's program (an ExitStatus); a JavaScript
 * stack overflow or a wasm trap inside Python leaves Pyodide fatally broken (realm/fatal-reason.ts). Either
 * way the interpreter is not usable afterwards, so the session ends (the host terminates the worker).
 */
function runOrCrash<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    const reason = fatalReason(error);
    if (reason !== null) throw new WorkerCrash(reason);
    throw error;
  }
}
