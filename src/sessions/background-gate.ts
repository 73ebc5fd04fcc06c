/**
 * When the server's background work may run: pool boots, background preload imports, priming, the state store's
 * sweeps. Closed while any call an agent waits on runs (a foreground call: a cell, a namespace or file op, a
 * create_session), and for LINGER_MS after the last one ends; open otherwise. The warm pool holds its sessions'
 * background work while it is closed (src/sessions/warm-pool.ts: their processes stopped, their steps held).
 *
 * Why: on a 2-core machine one booting session process or one scientific import takes both cores (the interpreter's
 * compile runs on V8's helper threads), and a `1+1` an agent waits on then waited its turn behind it: measured with
 * the pool refilling behind a stream of calls, p50 3-6× and p99 10× the quiet server's (docs/benchmarks.md).
 *
 * Starvation bound: a stream of calls with gaps shorter than LINGER_MS, or one long cell, would keep it closed for
 * ever, and the pool would never refill. So it closes for at most MAX_HOLD_MS at a time, then opens for RELEASE_MS
 * whatever runs: background work keeps at least RELEASE_MS / (MAX_HOLD_MS + RELEASE_MS) of the time.
 */

/**
 * How long after the last foreground call the gate stays closed: an agent's script makes its next call within a
 * millisecond or two of a reply (a model thinks for seconds between calls, and then the gate opens). Without it,
 * background work would restart in every gap of a stream and be stopped again at its next call.
 */
export const LINGER_MS = 50;
/**
 * The longest the gate stays closed at once. 2 s: a burst of short calls (200 `1+1`, about 0.2-0.6 s on a quiet
 * 2-core machine) fits in it whole, while a long cell or an endless stream holds the pool back at most this long.
 */
export const MAX_HOLD_MS = 2000;
/** How long the gate then opens (20 % of the time under a stream that never stops: a pool boot of 1.5-2.5 s of CPU still ends within about 10 s). */
export const RELEASE_MS = 500;

export interface GateTimings {
  lingerMs: number;
  maxHoldMs: number;
  releaseMs: number;
}

export class BackgroundGate {
  /** Foreground calls running now. */
  private running = 0;
  private closed = false;
  /** Until when it is open whatever runs (the starvation bound), or 0. */
  private releasedUntil = 0;
  private lingerTimer: NodeJS.Timeout | null = null;
  private holdTimer: NodeJS.Timeout | null = null;
  private releaseTimer: NodeJS.Timeout | null = null;
  private readonly listeners: ((open: boolean) => void)[] = [];

  constructor(private readonly timings: GateTimings = { lingerMs: LINGER_MS, maxHoldMs: MAX_HOLD_MS, releaseMs: RELEASE_MS }) {}

  /** True while background work may run (and start). */
  get open(): boolean {
    return !this.closed;
  }

  /** Calls `listener` at every change, with the new state. */
  onChange(listener: (open: boolean) => void): void {
    this.listeners.push(listener);
  }

  /** Runs a call an agent waits on; background work is held meanwhile (within the bounds above). */
  async foreground<T>(work: () => Promise<T>): Promise<T> {
    this.begin();
    try {
      return await work();
    } finally {
      this.end();
    }
  }

  /** Stops the timers (the server is closing); the gate stays open from now on. */
  close(): void {
    for (const timer of [this.lingerTimer, this.holdTimer, this.releaseTimer]) if (timer) clearTimeout(timer);
    this.lingerTimer = this.holdTimer = this.releaseTimer = null;
    this.releasedUntil = Infinity;
    this.set(false);
  }

  private begin(): void {
    this.running++;
    if (this.lingerTimer) clearTimeout(this.lingerTimer);
    this.lingerTimer = null;
    if (Date.now() >= this.releasedUntil) this.hold();
  }

  private end(): void {
    this.running--;
    if (this.running > 0 || !this.closed) return;
    this.lingerTimer = setTimeout(() => {
      this.lingerTimer = null;
      if (this.running === 0) this.release();
    }, this.timings.lingerMs);
    this.lingerTimer.unref();
  }

  /** Closes, for MAX_HOLD_MS at most. */
  private hold(): void {
    if (this.closed) return;
    this.holdTimer = setTimeout(() => {
      this.holdTimer = null;
      // The bound: open for RELEASE_MS whatever runs, then close again if anything still does.
      this.releasedUntil = Date.now() + this.timings.releaseMs;
      this.release();
      this.releaseTimer = setTimeout(() => {
        this.releaseTimer = null;
        this.releasedUntil = 0;
        if (this.running > 0) this.hold();
      }, this.timings.releaseMs);
      this.releaseTimer.unref();
    }, this.timings.maxHoldMs);
    this.holdTimer.unref();
    this.set(true);
  }

  private release(): void {
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.holdTimer = null;
    this.set(false);
  }

  private set(closed: boolean): void {
    if (this.closed === closed) return;
    this.closed = closed;
    for (const listener of this.listeners) listener(!closed);
  }
}
