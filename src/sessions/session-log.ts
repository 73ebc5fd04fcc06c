/**
 * What a session writes to the server's log, bounded per session: its process's raw stdout/stderr, and the log
 * messages its worker sends (what Python writes to fd 1/2 outside the harness's capture, e.g. `os.write(2, …)`,
 * arrives that way, as one message per line). User code controls both, and must not be able to flood the server's
 * stderr: a rate (bytes per minute) and a total over the session's life, after which one line says the rest is
 * dropped. Nothing is held: a line is logged or dropped at once, and only counters are kept.
 *
 * Why one bound for both: the raw-descriptor bound alone (256 KB a minute) was measured letting 380-490 KB/s through,
 * because Python's fd 2 reaches the server as worker log messages, which were logged unbounded.
 */
import { MAX_LOG_CHARS } from '../wire/limits.js';

/** Bounds of one session's log output. */
export interface SessionLogLimits {
  /** Bytes logged per minute; above it lines are dropped (counted, and the count logged when the minute ends). */
  bytesPerMinute: number;
  /** Bytes logged over the session's life; after it one line says so and every later line is dropped. */
  totalBytes: number;
}

export const DEFAULT_SESSION_LOG_LIMITS: SessionLogLimits = { bytesPerMinute: 256 * 1024, totalBytes: 2 ** 20 };

/**
 * Returns the session's log function. `who()` names the session in the lines it logs (it may be known only once the
 * session has started); `now` is for tests.
 */
export function boundedSessionLog(
  log: (message: string) => void,
  who: () => string,
  limits: SessionLogLimits = DEFAULT_SESSION_LOG_LIMITS,
  now: () => number = Date.now,
): (text: string) => void {
  let windowStart = now();
  let inWindow = 0;
  let droppedInWindow = 0;
  let total = 0;
  let closed = false;
  return (text) => {
    if (closed) return;
    const line = text.length > MAX_LOG_CHARS ? `${text.slice(0, MAX_LOG_CHARS)}…` : text;
    const bytes = Buffer.byteLength(line);
    const t = now();
    if (t - windowStart >= 60_000) {
      if (droppedInWindow > 0) log(`[${who()}] ${droppedInWindow} bytes of output dropped (over ${limits.bytesPerMinute} bytes a minute)`);
      windowStart = t;
      inWindow = 0;
      droppedInWindow = 0;
    }
    if (total + bytes > limits.totalBytes) {
      closed = true;
      log(`[${who()}] output logged so far: ${total} bytes, the most a session may log (${limits.totalBytes}); the rest is dropped`);
      return;
    }
    if (inWindow + bytes > limits.bytesPerMinute) {
      droppedInWindow += bytes;
      return;
    }
    inWindow += bytes;
    total += bytes;
    log(`[${who()}] ${line}`);
  };
}
