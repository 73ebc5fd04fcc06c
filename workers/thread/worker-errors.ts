/**
 * How the worker's failures travel to the host: the errors the worker itself raises, and `toWire`, which turns any
 * failure of a request into the contract's plain `{code, message}` (src/wire/contract.ts, WireError).
 */
import type { WireError } from '../../src/wire/contract.js';
import { WorkspaceError } from './workspace.js';

/**
 * The interpreter is gone (a Pyodide fatal error, `os._exit`, a signal) or the workspace was tampered with: the
 * session cannot continue, and every later request says so (dispatch.ts).
 */
export class WorkerCrash extends Error {}

/** A namespace op refused for a reason the caller can fix (the code travels to the tool reply). */
export class NamespaceFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Any failure, as the contract's error; `code` for those that carry none of their own. */
export function toWire(error: unknown, code = 'WORKER_ERROR'): WireError {
  if (error instanceof NamespaceFailure) return { code: error.code, message: error.message };
  if (error instanceof WorkspaceError) return { code: error.code, message: error.message };
  if (error instanceof WorkerCrash) return { code: 'WORKER_CRASHED', message: error.message };
  const err = error as { message?: string; type?: string; errno?: number };
  // Emscripten FS errors carry an errno and little of a message.
  if (typeof err?.errno === 'number') return { code, message: `File system error (errno ${err.errno}): ${err.message ?? ''}`.trim() };
  return { code, message: String(err?.message ?? error) };
}
