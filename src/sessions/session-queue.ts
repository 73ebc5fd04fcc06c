/**
 * One session's call queue: calls run one after another in arrival order, and the queue knows whether the
 * session is busy and since when it has been idle (for the TTL).
 *
 * Bounded (--max-queued-calls, --max-queued-bytes): measured before the bound, 1,400 calls of 199 k characters
 * queued behind a 40 s cell were all accepted, and a server with a 256 MB heap died (about 0.2 MB of heap per queued
 * call). Past the bound a call is refused at once (QUEUE_FULL); what is queued already is never dropped.
 */
import { PyodideMcpError } from '../errors.js';

/** How much one session's queue may hold. */
export interface QueueBound {
  /** Calls waiting behind the running one (--max-queued-calls). */
  maxCalls: number;
  /** Characters of code plus bytes of file data of every call in the queue, the running one included (--max-queued-bytes). */
  maxBytes: number;
}

const UNBOUNDED: QueueBound = { maxCalls: Infinity, maxBytes: Infinity };

export class SessionQueue {
  /** Calls queued or running; > 0 means busy. */
  private inFlight = 0;
  /** What the calls in flight hold, as counted by their callers. */
  private bytes = 0;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    public lastUsedAt: number,
    private readonly bound: QueueBound = UNBOUNDED,
  ) {}

  get busy(): boolean {
    return this.inFlight > 0;
  }

  /** Milliseconds without a call at `now`; 0 while busy (a busy session is never idle). */
  idleMsAt(now: number): number {
    return this.busy ? 0 : Math.max(0, now - this.lastUsedAt);
  }

  /**
   * Runs `task` after every call queued before it settles; a failure does not stop the queue. `bytes` is what the
   * call holds until it ends (its code, its file data). Throws QUEUE_FULL, running nothing, when the queue is at its
   * bound; an idle session takes any one call.
   */
  run<T>(task: () => Promise<T>, bytes = 0): Promise<T> {
    const waiting = this.inFlight; // the running call, if any, and those queued behind it
    if (waiting > this.bound.maxCalls || (waiting > 0 && this.bytes + bytes > this.bound.maxBytes)) {
      const why =
        waiting > this.bound.maxCalls
          ? `${waiting - 1} calls are already waiting behind the running one (--max-queued-calls ${this.bound.maxCalls})`
          : `the calls already queued hold ${this.bytes} bytes of code and data, and this one ${bytes} more (--max-queued-bytes ${this.bound.maxBytes})`;
      return Promise.reject(
        new PyodideMcpError(
          'QUEUE_FULL',
          `The session is busy and its queue is full: ${why}. This call was not queued; the calls already queued are kept. Wait for the running call to finish (list_sessions shows busy: false), or stop it: cancel the request, or give long cells a shorter timeout_seconds.`,
        ),
      );
    }
    this.inFlight++;
    this.bytes += bytes;
    this.lastUsedAt = Date.now();
    const run = async () => {
      try {
        return await task();
      } finally {
        this.inFlight--;
        this.bytes -= bytes;
        this.lastUsedAt = Date.now();
      }
    };
    const result = this.tail.then(run, run);
    this.tail = result.catch(() => {});
    return result;
  }
}
