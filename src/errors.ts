/**
 * Error classes with stable codes. Tool handlers throw these; `toToolError` in src/server/tools/shared.ts turns
 * any of them into an MCP `isError` result in one place.
 */

export const ERROR_CODES = [
  'INVALID_INPUT',
  'SESSION_NOT_FOUND',
  'WRONG_INSTANCE',
  'SESSION_EXPIRED',
  'SESSION_DEAD',
  'SESSION_LIMIT',
  'MEMORY_BUDGET',
  'CLIENT_SESSION_LIMIT',
  'EXEC_TIMEOUT',
  'EXEC_CANCELLED',
  'WORKER_CRASHED',
  'WORKER_ERROR',
  'BOOT_FAILED',
  'PACKAGE_UNAVAILABLE',
  'PACKAGE_LOAD_FAILED',
  'PATH_DENIED',
  'FILE_NOT_FOUND',
  'FILE_EXISTS',
  'NOT_A_FILE',
  'NAME_NOT_FOUND',
  'NOT_CALLABLE',
  'TOOL_NOT_FOUND',
  'QUOTA_EXCEEDED',
  'SERVER_CLOSING',
  'REPLY_TOO_LARGE',
  'RESTORE_FAILED',
  'QUEUE_FULL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export function isErrorCode(value: string): value is ErrorCode {
  return (ERROR_CODES as readonly string[]).includes(value);
}

/** An error whose message is written for the person or model reading the tool reply. */
export class PyodideMcpError extends Error {
  override readonly name = 'PyodideMcpError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * A bad flag, option or setting (an unknown option, a value out of range, an untrusted --state-dir): the caller's to
 * fix before anything runs. The command prints its message and exits 2; the library throws it from createSandbox().
 * A TypeError, Node's convention for a bad argument (what the library has always thrown), with a stable `code` so
 * that callers tell it from a bug's TypeError without `instanceof TypeError`.
 */
export class UsageError extends TypeError {
  override readonly name = 'UsageError';
  readonly code = 'USAGE_ERROR';
}

export const NEW_SESSION_HINT =
  'Call create_session, or execute_code without session_id, to start a new session (variables and files of the old one are gone).';
