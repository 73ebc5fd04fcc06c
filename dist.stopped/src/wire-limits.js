/**
 * Size limits both sides of a session's channel use, in a module without dependencies: the worker imports it and
 * must not load zod (its permission model reads only our own code and the distribution).
 */
/** Longest log line a session may send; longer ones are cut by the sender and again by the receiver. */
export const MAX_LOG_CHARS = 8_000;
/** Largest frame the server sends a session process: a write_file or an install_wheel with its bytes (checked first). */
export const MAX_SERVER_FRAME_BYTES = 4 * 2 ** 30;
