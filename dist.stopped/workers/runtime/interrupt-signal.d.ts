/**
 * The interrupt buffer as Pyodide's interpreter sees it: slot 0 of the session's shared Int32Array, read so that a
 * signal is never lost.
 *
 * Why: both runtimes poll the buffer from the eval loop with a plain read followed by a plain write of 0
 * (`r = buf[0]; buf[0] = 0; return r`: CPython's `_Py_CheckEmscriptenSignals_Helper` in the modern runtime, the
 * ASM_CONSTS helper of 0.17.1). A SIGINT the host stores between the two is overwritten, and the cell runs on until
 * the host raises it again (src/sessions/channel.ts, every 100 ms). Measured with the interruptible loop of the
 * benchmark while another session warmed up on the second core: 2 of 30 timeouts answered 104-106 ms after their
 * deadline instead of 3-21 ms; a host thread that wakes on the same core preempts the worker, which makes landing
 * between the two steps likely. Here the write of 0 clears the slot only if it still holds what the read returned
 * (compare-exchange), so a signal stored in between stays for the next poll.
 *
 * Security: Python can reach this object (as it could reach the array before); through it, it can only raise or
 * clear its own session's interrupt, as before.
 */
/** What the runtimes index: `view[0]` read and written by the interpreter's poll. */
export interface InterruptSignalView {
    0: number;
}
export declare function losslessSignalView(signal: Int32Array): InterruptSignalView;
