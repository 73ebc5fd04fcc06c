/**
 * A counting semaphore: at most `size` tasks run at once, the others wait in arrival order. Used to bound work whose
 * memory grows with each task running at once (export_notebook).
 */
export class Slots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  /** @param size tasks allowed to run at once (at least 1) */
  constructor(private readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new TypeError(`Slots: size must be a positive integer, not ${size}`);
  }

  /** Runs `task` once a slot is free; the slot is given back however the task ends. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter (running stays the same), so no newcomer can take it first.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
