/**
 * The realm's timers, tied to the cell that scheduled them (a mechanism of the cell scope, cell-scope.ts).
 *
 * Why: a cell's Python can leave work behind in the worker's event loop, e.g. `js.setTimeout(create_proxy(f), 10)`,
 * or Pyodide's asyncio loop (WebLoop schedules every callback through `pyodide._api.scheduleCallback`, which in Node
 * is `setImmediate` for delays <= 2 ms and `setTimeout` otherwise, both looked up on `globalThis` at call time).
 * Measured before the cell scope: such a callback ran after the cell's reply, outside the file quota, and wrote a
 * 300 MB file past a 50 MB limit.
 *
 * What this does: `install()` replaces `setTimeout`, `setInterval`, `setImmediate`, `queueMicrotask` (and the clear*
 * functions) on the realm's global object. Inside a cell every callback is recorded and tied to that cell; after the
 * cell it is cancelled (`cancelCells`), and anything still firing is refused. Outside a cell scheduling throws.
 * Handles are plain numbers: Node's Timeout/Immediate objects would hand out `refresh()` and their constructors,
 * which schedule without going through here.
 * Everything used here is captured when this module is first imported, before user code exists.
 */
import { HOST, type CellState } from './cell-state.js';

const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;
const realSetInterval = globalThis.setInterval;
const realClearInterval = globalThis.clearInterval;
const realSetImmediate = globalThis.setImmediate;
const realClearImmediate = globalThis.clearImmediate;
const realQueueMicrotask = globalThis.queueMicrotask;
const apply = Reflect.apply;
const defineProperty = Object.defineProperty;
const max = Math.max;
const now = performance.now.bind(performance);
const TypeErrorType = TypeError;
const ErrorType = Error;

/** Text of a refusal to schedule outside a cell. */
export const OUTSIDE_CELL = 'refused: no cell is running (pyodide-mcp runs user code only inside a cell)';

type Kind = 'timeout' | 'interval' | 'immediate';
interface Entry {
  kind: Kind;
  handle: unknown;
  /** The cell that scheduled it, or HOST for the worker's own work. */
  owner: number;
  /** When it is due (performance.now()), for timeouts and intervals. */
  due: number;
}

export class CellTimers {
  private nextId = 1;
  /** Scheduled timers by id. A null-prototype object walked with for-in: no Map/iterator methods user code could patch. */
  private readonly entries: Record<number, Entry> = Object.create(null);

  constructor(private readonly state: CellState) {}

  /** Replaces the timer globals of the realm. */
  install(): void {
    const g = globalThis as Record<string, unknown>;
    const state = this.state;
    const run = (owner: number, callback: Function, args: unknown[]) => this.fire(owner, callback, args);
    const set = (name: string, value: Function) => {
      defineProperty(value, 'name', { value: name });
      defineProperty(g, name, { value, writable: true, configurable: true, enumerable: true });
    };
    const schedule = (kind: Kind, callback: unknown, delay: unknown, args: unknown[], name: string): number => {
      if (typeof callback !== 'function') throw new TypeErrorType(`${name}: the callback must be a function`);
      if (!state.open) throw new ErrorType(`${name} ${OUTSIDE_CELL}`);
      const owner = state.inCell ? state.generation : HOST;
      if (state.inCell) state.scheduled++;
      const id = this.nextId++;
      const ms = kind === 'immediate' ? 0 : max(1, +(delay as number) || 0);
      const entry: Entry = { kind, handle: undefined, owner, due: now() + ms };
      const fire = () => {
        if (kind === 'interval') entry.due = now() + ms;
        else delete this.entries[id];
        run(owner, callback, args);
      };
      entry.handle =
        kind === 'immediate' ? realSetImmediate(fire) : kind === 'interval' ? realSetInterval(fire, ms) : realSetTimeout(fire, ms);
      this.entries[id] = entry;
      return id;
    };
    const clear = (id: unknown) => {
      const entry = typeof id === 'number' ? this.entries[id] : undefined;
      if (!entry) return;
      delete this.entries[id as number];
      this.cancel(entry);
    };
    set('setTimeout', function setTimeout(callback: unknown, delay?: unknown, ...args: unknown[]) {
      return schedule('timeout', callback, delay, args, 'setTimeout');
    });
    set('setInterval', function setInterval(callback: unknown, delay?: unknown, ...args: unknown[]) {
      return schedule('interval', callback, delay, args, 'setInterval');
    });
    set('setImmediate', function setImmediate(callback: unknown, ...args: unknown[]) {
      return schedule('immediate', callback, 0, args, 'setImmediate');
    });
    set('clearTimeout', function clearTimeout(id: unknown) {
      clear(id);
    });
    set('clearInterval', function clearInterval(id: unknown) {
      clear(id);
    });
    set('clearImmediate', function clearImmediate(id: unknown) {
      clear(id);
    });
    set('queueMicrotask', function queueMicrotask(callback: unknown) {
      if (typeof callback !== 'function') throw new TypeErrorType('queueMicrotask: the callback must be a function');
      if (!state.open) throw new ErrorType(`queueMicrotask ${OUTSIDE_CELL}`);
      const owner = state.inCell ? state.generation : HOST;
      if (state.inCell) state.scheduled++;
      realQueueMicrotask(() => run(owner, callback, []));
    });
  }

  /** Whether a timer of the running cell is due now (or an immediate of it is waiting). */
  hasDue(): boolean {
    const soon = now() + 1;
    for (const id in this.entries) {
      const entry = this.entries[id]!;
      if (entry.owner === this.state.generation && (entry.kind === 'immediate' || entry.due <= soon)) return true;
    }
    return false;
  }

  /** When the running cell's next timeout or interval is due, if it has one. */
  nextDue(): number | undefined {
    let next: number | undefined;
    for (const id in this.entries) {
      const entry = this.entries[id]!;
      if (entry.owner === this.state.generation && entry.kind !== 'immediate' && (next === undefined || entry.due < next)) next = entry.due;
    }
    return next;
  }

  /** The running cell's timers still scheduled. */
  pending(): number {
    let count = 0;
    for (const id in this.entries) if (this.entries[id]!.owner === this.state.generation) count++;
    return count;
  }

  /** Cancels every timer a cell scheduled (the worker's own stay). */
  cancelCells(): void {
    for (const id in this.entries) {
      const entry = this.entries[id]!;
      if (entry.owner === HOST) continue;
      delete this.entries[id];
      this.cancel(entry);
    }
  }

  private cancel(entry: Entry): void {
    if (entry.kind === 'immediate') realClearImmediate(entry.handle as NodeJS.Immediate);
    else if (entry.kind === 'interval') realClearInterval(entry.handle as NodeJS.Timeout);
    else realClearTimeout(entry.handle as NodeJS.Timeout);
  }

  /** Runs a callback as its owner: the worker's own with Python open, a cell's only while that cell runs. */
  private fire(owner: number, callback: Function, args: unknown[]): void {
    const state = this.state;
    if (owner === HOST) {
      state.hostDepth++;
      try {
        apply(callback, undefined, args);
      } finally {
        state.hostDepth--;
      }
      return;
    }
    if (!state.inCell || owner !== state.generation) {
      state.refused++;
      return;
    }
    state.activity++;
    try {
      apply(callback, undefined, args);
    } catch (error) {
      state.record(error);
    }
  }
}
