/**
 * What every mechanism of the cell scope (cell-scope.ts) reads and counts: which cell runs, whether the worker's own
 * work runs, and what the running cell has done so far.
 *
 * Why a module of its own: the timers (cell-timers.ts), the promise reactions (cell-promise-reactions.ts), the entry
 * gate (cell-entry-gate.ts) and the package loads (cell-package-loads.ts) each decide from the same few facts whether
 * a callback may enter Python now, and report into the same counters; the scope itself only moves the state between
 * cells. It lives in module closures: nothing here is reachable from the realm's global object.
 * Everything used here is captured when this module is first imported, before user code exists.
 */
import { fatalReason, has } from './fatal-reason.js';

const apply = Reflect.apply;
const slice = String.prototype.slice;
const toText = String;

/** Owner of work scheduled by the worker itself (inside `host()`), not by a cell. */
export const HOST = -1;
/** Promise reactions registered while no cell or host work runs (an escaped callback): never allowed to run. */
export const NOBODY = -2;

/** Errors of a cell's callbacks kept for the reply (each cut to MAX_ERROR_CHARS); the rest are counted. */
const MAX_ERRORS = 20;
const MAX_ERROR_CHARS = 4000;

export class CellState {
  /** The running cell's number; 0 before the first. Callbacks of any other number are refused. */
  generation = 0;
  inCell = false;
  /** Nesting of the worker's own work (package loading, harness calls) outside a cell. */
  hostDepth = 0;
  errors: string[] = [];
  moreErrors = 0;
  fatal: unknown = null;
  interruptedByCallback = false;
  /** Calls into Python refused since the last cell ended (logged then). */
  refused = 0;
  /** Callbacks of the cell that ran (only they can start asyncio tasks after the cell's code returned). */
  activity = 0;
  /** Package loads started by the running cell and not finished. */
  loads = 0;
  /** What the running cell scheduled (timers, microtasks, promise reactions into Python). */
  scheduled = 0;

  /** May Python be entered now (from JavaScript)? */
  get open(): boolean {
    return this.inCell || this.hostDepth > 0;
  }

  /** A new cell starts: everything counted for the previous one is forgotten. */
  startCell(): void {
    this.generation++;
    this.inCell = true;
    this.errors = [];
    this.moreErrors = 0;
    this.fatal = null;
    this.interruptedByCallback = false;
    this.loads = 0;
    this.scheduled = 0;
  }

  /** An uncaught error of one of the cell's callbacks: kept for the reply, or fatal. */
  record(error: unknown): void {
    if (fatalReason(error) !== null) {
      if (this.fatal === null) this.fatal = error;
      return;
    }
    const err = error as { type?: unknown; message?: unknown } | null;
    // Pyodide 314 prints a callback's Python traceback to sys.stderr (the cell's) and leaves `message` empty.
    const text = toText(err?.message || (typeof err?.type === 'string' ? `${err.type} (traceback above)` : error));
    // The host's interrupt (deadline, cancellation) landed in a callback: the reply reports it, not as a callback error.
    if (err?.type === 'KeyboardInterrupt' || has(apply(slice, text, [-300]) as string, '\nKeyboardInterrupt')) {
      this.interruptedByCallback = true;
      return;
    }
    if (this.errors.length >= MAX_ERRORS) this.moreErrors++;
    else this.errors[this.errors.length] = text.length > MAX_ERROR_CHARS ? `${apply(slice, text, [0, MAX_ERROR_CHARS])} [... cut]` : text;
  }
}
