/**
 * Fair dispatch of HTTP requests to the SDK's transports. Node runs every request whose body has arrived as soon as
 * its 'end' event fires, in arrival order; the SDK then spends ~8 ms of the server's thread on each (the Node ->
 * Web Request conversion, zod validation, the SSE response), so a client keeping many requests in flight made every
 * other client wait behind all of its ready ones.
 *
 * Here each ready request goes into its client's FIFO queue, and the queues are served round-robin, one task per
 * macrotask turn: a task is started in a setImmediate callback, so its synchronous and microtask part (most of the
 * SDK's cost) runs then, and the next task starts in the next turn's check phase, after the I/O that arrived in
 * between was enqueued. A task is not waited for (a tool call may take minutes), only started. A client therefore
 * waits for about one task of each other client per turn, not for all their queued ones. Measured (BENCH_ONLY=
 * fairness, A flooding from its own thread, on a loaded 2-core machine): B's server_info p95 under A's 64-request
 * flood ~60-110 ms, against ~80-280 ms when requests ran in arrival order; p50 ~15-30 ms either way (~5-10 alone).
 */

/** What `result` resolves to for a task dropped before it was started. */
export const DROPPED = Symbol('dropped');

/** A scheduled task. */
export interface Job<T> {
  /** The task's own result once started, or DROPPED if `drop()` came first. */
  result: Promise<T | typeof DROPPED>;
  /** Removes the task if it has not started yet (true); false once started (it then runs on). */
  drop: () => boolean;
}

interface Entry {
  start: () => void;
  dropped: () => void;
}

/** Round-robin queues of tasks keyed by client, one task started per macrotask turn. */
export class FairDispatcher<K> {
  /** Non-empty queues in serving order: the next task comes from the first; a served queue moves to the end. */
  private readonly queues = new Map<K, Entry[]>();
  private scheduled = false;

  /** @param maxQueued Most tasks one key may have waiting (unless `schedule` is given another bound). */
  constructor(readonly maxQueued: number) {
    if (!Number.isInteger(maxQueued) || maxQueued < 1) throw new TypeError(`maxQueued must be a positive integer, got ${maxQueued}`);
  }

  /** Tasks of `key` waiting to start. */
  queued(key: K): number {
    return this.queues.get(key)?.length ?? 0;
  }

  /** Tasks of all keys waiting to start. */
  get size(): number {
    let n = 0;
    for (const queue of this.queues.values()) n += queue.length;
    return n;
  }

  /**
   * Queues `task` behind the other tasks of `key`. A task that throws, or whose promise rejects, rejects `result`.
   * @param limit Most tasks `key` may have waiting; default `maxQueued`.
   * @throws RangeError when `key` already has `limit` tasks waiting (the caller refuses the request).
   */
  schedule<T>(key: K, task: () => T | Promise<T>, limit = this.maxQueued): Job<T> {
    let queue = this.queues.get(key);
    if (queue && queue.length >= limit) throw new RangeError(`${queue.length} tasks already queued for this key`);
    let entry!: Entry;
    const result = new Promise<T | typeof DROPPED>((resolve, reject) => {
      entry = {
        start: () => {
          try {
            Promise.resolve(task()).then(resolve, reject);
          } catch (error) {
            reject(error);
          }
        },
        dropped: () => resolve(DROPPED),
      };
    });
    if (!queue) this.queues.set(key, (queue = []));
    queue.push(entry);
    this.wake();
    const drop = () => {
      const q = this.queues.get(key);
      const at = q ? q.indexOf(entry) : -1;
      if (at < 0) return false;
      q!.splice(at, 1);
      if (q!.length === 0) this.queues.delete(key);
      entry.dropped();
      return true;
    };
    return { result, drop };
  }

  private wake(): void {
    if (this.scheduled || this.queues.size === 0) return;
    this.scheduled = true;
    // Not unref()ed: it only exists while tasks wait, and those must start.
    setImmediate(() => {
      this.scheduled = false;
      this.next();
      this.wake();
    });
  }

  /** Starts the first task of the first queue, and moves that queue to the end. */
  private next(): void {
    const first = this.queues.entries().next();
    if (first.done) return;
    const [key, queue] = first.value;
    const entry = queue.shift()!;
    this.queues.delete(key);
    if (queue.length > 0) this.queues.set(key, queue);
    entry.start();
  }
}
