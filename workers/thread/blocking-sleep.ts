/**
 * What Python's `time.sleep` waits on (workers/python/environment.py, `block_in_sleep`): the worker thread blocks
 * without using the CPU, and wakes as soon as the host raises an interrupt (a time limit, `interrupt_session`).
 *
 * Why: neither runtime's own sleep does this. Pyodide 0.17.1 (legacy) returns at once (CPython's sleep under
 * Emscripten does not wait: measured `time.sleep(1.5)` took 0.0002 s), and the modern runtime busy-waits
 * (`time.sleep(1.5)` used 1.5 s of CPU), a whole core for every sleeping session, with no interrupt polled until
 * the sleep ends.
 *
 * The wait is on the session's interrupt signal (slot 0 of its shared Int32Array), for as long as it holds 0: the
 * supervisor notifies it when it stores SIGINT (src/supervisor/supervisor.ts), so an interrupt ends the wait at once,
 * and the interpreter's next poll raises KeyboardInterrupt.
 *
 * Security: Python can call this directly (`pyodide_js._pyodide_mcp_sleep`); it can only make its own worker wait,
 * for at most MAX_WAIT_MS per call, which a busy loop could do anyway.
 */

// Captured when the module loads: the realm's globals (Atomics among them) are writable by the session's code.
const atomicWait = Atomics.wait;

/** The longest one call waits: the Python side loops until its deadline, so a sleep stays bounded by its cell's limits. */
export const MAX_WAIT_MS = 1000;

export function blockingSleep(interruptSignal: Int32Array): (seconds: unknown) => void {
  return (seconds: unknown) => {
    const ms = typeof seconds === 'number' ? seconds * 1000 : NaN;
    if (!(ms > 0)) return;
    atomicWait(interruptSignal, 0, 0, Math.min(ms, MAX_WAIT_MS));
  };
}
