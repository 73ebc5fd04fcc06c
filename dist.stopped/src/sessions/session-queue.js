/**
 * One session's call queue: calls run one after another in arrival order, and the queue knows whether the
 * session is busy and since when it has been idle (for the TTL).
 */
export class SessionQueue {
    lastUsedAt;
    /** Calls queued or running; > 0 means busy. */
    inFlight = 0;
    tail = Promise.resolve();
    constructor(lastUsedAt) {
        this.lastUsedAt = lastUsedAt;
    }
    get busy() {
        return this.inFlight > 0;
    }
    /** Milliseconds without a call at `now`; 0 while busy (a busy session is never idle). */
    idleSince(now) {
        return this.busy ? 0 : Math.max(0, now - this.lastUsedAt);
    }
    /** Runs `task` after every call queued before it settles; a failure does not stop the queue. */
    run(task) {
        this.inFlight++;
        this.lastUsedAt = Date.now();
        const run = async () => {
            try {
                return await task();
            }
            finally {
                this.inFlight--;
                this.lastUsedAt = Date.now();
            }
        };
        const result = this.tail.then(run, run);
        this.tail = result.catch(() => { });
        return result;
    }
}
