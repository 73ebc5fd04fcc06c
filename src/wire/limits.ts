/**
 * Constants both sides of a session's channel use (sizes, the workspace's place), in a module without dependencies:
 * the worker thread imports it.
 */

/** The workspace directory inside every session (Python's working directory); the harness names it too. */
export const WORKSPACE = '/workspace';

/** Longest log line a session may send; longer ones are cut by the sender and again by the receiver. */
export const MAX_LOG_CHARS = 8_000;

/** Largest frame the server sends a session process: a write_file or an install_wheel with its bytes (checked first). */
export const MAX_SERVER_FRAME_BYTES = 4 * 2 ** 30;

/**
 * Longest piece of a running cell's output one `output` message carries (the browser view's live output), in
 * characters: the worker cuts to it, the server refuses a message over it as outside the contract.
 */
export const MAX_OUTPUT_CHUNK_CHARS = 64 * 1024;
