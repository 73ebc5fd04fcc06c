/**
 * Error classes with stable codes. Tool handlers throw these; `toToolError` in src/server/tools/shared.ts turns
 * any of them into an MCP `isError` result in one place.
 */
const ERROR_CODES = [
    'INVALID_INPUT',
    'SESSION_NOT_FOUND',
    'SESSION_EXPIRED',
    'SESSION_DEAD',
    'SESSION_LIMIT',
    'EXEC_TIMEOUT',
    'EXEC_CANCELLED',
    'WORKER_CRASHED',
    'WORKER_ERROR',
    'BOOT_FAILED',
    'PACKAGE_UNAVAILABLE',
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
];
export function isErrorCode(value) {
    return ERROR_CODES.includes(value);
}
/** An error whose message is written for the person or model reading the tool reply. */
export class PyodideMcpError extends Error {
    code;
    name = 'PyodideMcpError';
    constructor(code, message, options) {
        super(message, options);
        this.code = code;
    }
}
export const NEW_SESSION_HINT = 'Call create_session, or execute_code without session_id, to start a new session (variables and files of the old one are gone).';
