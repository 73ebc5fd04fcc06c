/**
 * A counting semaphore: at most `size` tasks run at once, the others wait in arrival order. Used to bound work whose
 * memory grows with each task running at once (export_notebook).
 */
export class Slots {
    size;
    running = 0;
    waiting = [];
    /** @param size tasks allowed to run at once (at least 1) */
    constructor(size) {
        this.size = size;
        if (!Number.isInteger(size) || size < 1)
            throw new TypeError(`Slots: size must be a positive integer, not ${size}`);
    }
    /** Runs `task` once a slot is free; the slot is given back however the task ends. */
    async run(task) {
        if (this.running >= this.size)
            await new Promise((resolve) => this.waiting.push(resolve));
        else
            this.running++;
        try {
            return await task();
        }
        finally {
            // The slot passes straight to the next waiter (running stays the same), so no newcomer can take it first.
            const next = this.waiting.shift();
            if (next)
                next();
            else
                this.running--;
        }
    }
}
