/**
 * One session's call queue: calls run one after another in arrival order, and the queue knows whether the
 * session is busy and since when it has been idle (for the TTL).
 */
export declare class SessionQueue {
    lastUsedAt: number;
    /** Calls queued or running; > 0 means busy. */
    private inFlight;
    private tail;
    constructor(lastUsedAt: number);
    get busy(): boolean;
    /** Milliseconds without a call at `now`; 0 while busy (a busy session is never idle). */
    idleSince(now: number): number;
    /** Runs `task` after every call queued before it settles; a failure does not stop the queue. */
    run<T>(task: () => Promise<T>): Promise<T>;
}
