/**
 * Cell scope: user code runs only inside a cell (or, for the worker's own work, inside `host()`).
 *
 * Why: a cell's Python can leave work behind in the worker's JavaScript event loop (a timer, a promise reaction, an
 * asyncio callback) that would run after the cell's reply: outside its time limit, its output and the file quota
 * (measured before this module: a 300 MB file written past a 50 MB limit). Each way out is closed by one mechanism,
 * installed by `install()` at the end of lockdown, before any user code, in this order:
 *  1. `cell-timers.ts`: the timer globals and `queueMicrotask`, tied to the cell that scheduled them;
 *  2. `cell-promise-reactions.ts`: `Promise.prototype.then` reactions that enter Python, tied to their cell;
 *  3. `cell-entry-gate.ts`: every JavaScript call into Python refused while no cell or host work runs;
 *  4. `cell-package-loads.ts`: a cell's own `pyodide_js.loadPackage` finishes inside the cell.
 * They share what they read and count through `cell-state.ts`. This module moves that state between cells:
 * `begin()`, `settle()` (after the cell's code returns, the worker lets the cell's ready callbacks and microtasks run,
 * and keeps the event loop turning while asyncio tasks started by the cell are unfinished, until the host's interrupt,
 * the cell's deadline) and `end()` (cancels whatever is left).
 * asyncio, measured before this module (Node 20.20): `asyncio.run()` and `loop.run_until_complete()` fail on both
 * runtimes (314: "WebAssembly stack switching not supported", no JSPI in Node 20; 0.17: "cannot be called from a
 * running event loop"), top-level `await` was a SyntaxError, and `asyncio.ensure_future(...)` tasks ran between
 * cells. Now such tasks finish inside their cell, and a cell may `await` at top level (harness.py).
 * Finalizers: a PyProxy of a user object being garbage-collected would run its `__del__` from a FinalizationRegistry
 * callback, outside these entry points; those callbacks are queued instead and run at the start of the next cell
 * (finalizers.ts). The file quota (file-quota.ts) holds whenever Python runs.
 * Everything used here is captured when this module is first imported, before user code exists.
 */
import { trackPackageLoads } from './cell-package-loads.js';
import { scopePromiseReactions } from './cell-promise-reactions.js';
import { gatePythonEntry } from './cell-entry-gate.js';
import { CellState } from './cell-state.js';
import { CellTimers } from './cell-timers.js';

const realSetTimeout = globalThis.setTimeout;
const realSetImmediate = globalThis.setImmediate;
const PromiseType = Promise;
const defineProperty = Object.defineProperty;
const max = Math.max;
const min = Math.min;
const now = performance.now.bind(performance);

/** While settling, how often the interrupt signal is polled when nothing is due earlier. */
const POLL_MS = 10;

export interface SettleOptions {
  /** True when the host has asked the cell to stop (deadline or cancellation); consumes the signal. */
  interrupted(): boolean;
  /** asyncio tasks started by this cell that have not finished (a call into the harness); < 0: interrupted. */
  pendingTasks(): number;
  /** pendingTasks() as of the end of the cell's code: asked again only once a callback of the cell has run. */
  tasksAtStart: number;
}

export interface Settled {
  /** The deadline or a cancellation stopped the waiting. */
  interrupted: boolean;
  /** An error from a callback that means the interpreter is gone (see fatal-reason.ts), or null. */
  fatal: unknown;
  /** Uncaught errors of the cell's callbacks, as text. */
  errors: string[];
  /** Errors beyond the number kept (cell-state.ts), counted only. */
  moreErrors: number;
  /** The cell's timers still scheduled (end() cancels them). */
  pendingTimers: number;
}

class CellScope {
  private installed = false;
  private readonly state = new CellState();
  private readonly timers = new CellTimers(this.state);
  private log: (message: string) => void = () => {};

  /**
   * Installs the four mechanisms (see the module comment), in that order. `module` is the Emscripten Module of the
   * booted runtime (`pyodide._module`), `api` the Pyodide API object (`pyodide_js`).
   */
  install({
    module,
    api,
    log,
    drainFinalizers,
  }: {
    module: Record<string, unknown>;
    api: Record<string, unknown>;
    log: (message: string) => void;
    /** Runs the deferred finalizers (finalizers.ts); the harness calls it at the start of a cell or namespace op. */
    drainFinalizers: () => number;
  }): void {
    if (this.installed) return;
    this.log = log;
    const state = this.state;
    // For the harness's one-call fast path (see `idle`).
    defineProperty(api, '_pyodide_mcp_cell_idle', { value: () => this.idle, writable: false, configurable: false, enumerable: false });
    // Finalizers run inside a cell only (under its time limit and interrupt); called outside one, nothing runs.
    defineProperty(api, '_pyodide_mcp_drain_finalizers', {
      value: () => (state.inCell ? drainFinalizers() : 0),
      writable: false,
      configurable: false,
      enumerable: false,
    });
    this.timers.install();
    scopePromiseReactions(state);
    gatePythonEntry(state, module, api);
    trackPackageLoads(state, api);
    this.installed = true;
  }

  /** Runs the worker's own work (sync or async) with Python and scheduling allowed outside a cell. */
  async host<T>(work: () => T | Promise<T>): Promise<T> {
    this.state.hostDepth++;
    try {
      return await work();
    } finally {
      this.state.hostDepth--;
    }
  }

  /** A cell starts: from now its callbacks may run. */
  begin(): void {
    if (this.state.inCell) this.end();
    this.state.startCell();
  }

  /**
   * True while the running cell has scheduled nothing that could run later (no timer, microtask, promise reaction
   * into Python or package load): the harness then finishes the cell in one call, with no settle step. Reachable
   * from Python (pyodide_js._pyodide_mcp_cell_idle); a lie only finishes a cell early, and end() still cancels
   * whatever it left.
   */
  get idle(): boolean {
    const state = this.state;
    return state.inCell && state.scheduled === 0 && state.loads === 0;
  }

  /**
   * Lets the cell's work finish inside the cell: microtasks and due callbacks run; while asyncio tasks the cell
   * started are unfinished, the event loop keeps turning (timers fire when due) until they are done or the host
   * interrupts. A cell's bare JavaScript timers do not keep it waiting: those not yet due are cancelled by end().
   */
  async settle(options: SettleOptions): Promise<Settled> {
    const state = this.state;
    let interrupted = false;
    let tasks = options.tasksAtStart;
    let seen = state.activity;
    for (;;) {
      await new PromiseType<void>((resolve) => realSetImmediate(resolve));
      if (state.fatal !== null) break;
      if (state.interruptedByCallback || options.interrupted()) {
        interrupted = true;
        break;
      }
      if (this.timers.hasDue()) continue;
      if (state.activity !== seen) {
        tasks = options.pendingTasks();
        seen = state.activity; // the question itself entered Python
      }
      if (tasks < 0) {
        interrupted = true;
        break;
      }
      if (tasks === 0 && state.loads === 0) break;
      const next = this.timers.nextDue();
      const wait = next === undefined ? POLL_MS : min(POLL_MS, max(1, next - now()));
      await new PromiseType<void>((resolve) => realSetTimeout(resolve, wait));
    }
    const pendingTimers = this.timers.pending();
    return { interrupted, fatal: state.fatal, errors: state.errors, moreErrors: state.moreErrors, pendingTimers };
  }

  /** The cell ends: its timers are cancelled; its callbacks and promise reactions are refused from now on. */
  end(): void {
    const state = this.state;
    if (!state.inCell) return;
    state.inCell = false;
    this.timers.cancelCells();
    if (state.refused > 0) {
      this.log(`cell scope: refused ${state.refused} call(s) into Python from callbacks outside their cell`);
      state.refused = 0;
    }
  }
}

/** The one cell scope of this worker. */
export const cellScope = new CellScope();
