/**
 * A counting semaphore: at most `size` tasks run at once, the others wait in arrival order. Used to bound work whose
 * memory grows with each task running at once (export_notebook).
 */
export declare class Slots {
    private readonly size;
    private running;
    private readonly waiting;
    /** @param size tasks allowed to run at once (at least 1) */
    constructor(size: number);
    /** Runs `task` once a slot is free; the slot is given back however the task ends. */
    run<T>(task: () => Promise<T>): Promise<T>;
}
