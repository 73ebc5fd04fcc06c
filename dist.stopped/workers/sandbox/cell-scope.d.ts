/** Text of a refusal to schedule outside a cell. */
export declare const OUTSIDE_CELL = "refused: no cell is running (pyodide-mcp runs user code only inside a cell)";
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
    /** An error from a callback that means the interpreter is gone (see fatalReason), or null. */
    fatal: unknown;
    /** Uncaught errors of the cell's callbacks, as text. */
    errors: string[];
    /** Errors beyond MAX_ERRORS, counted only. */
    moreErrors: number;
    /** The cell's timers still scheduled (end() cancels them). */
    pendingTimers: number;
}
/**
 * Why an error thrown out of Python means the interpreter cannot be used any more, or null. Measured (Node 20.20,
 * 4 MB worker stack): deep recursion overflows the JavaScript stack (RangeError "Maximum call stack size exceeded")
 * inside wasm; Pyodide 314 tags the error `pyodide_fatal_error` and keeps answering with an inconsistent interpreter,
 * 0.17 answers "Pyodide already fatally failed" from then on; a trap (WebAssembly.RuntimeError, e.g. "memory access
 * out of bounds" when 0.17 pickles a 200,000-deep list) leaves it the same.
 */
export declare function fatalReason(error: unknown): string | null;
declare class CellScope {
    private installed;
    /** The running cell's number; 0 before the first. Callbacks of any other number are refused. */
    private generation;
    private inCell;
    /** Nesting of the worker's own work (package loading, harness calls) outside a cell. */
    private hostDepth;
    private nextId;
    /** Scheduled timers by id. A null-prototype object walked with for-in: no Map/iterator methods user code could patch. */
    private readonly entries;
    private errors;
    private moreErrors;
    private fatal;
    private interruptedByCallback;
    private refused;
    /** Callbacks of the cell that ran (only they can start asyncio tasks after the cell's code returned). */
    private activity;
    /** Package loads started by the running cell and not finished. */
    private loads;
    /** What the running cell scheduled (timers, microtasks, promise reactions into Python). */
    private scheduled;
    private log;
    /** May Python be entered now (from JavaScript)? */
    private get open();
    /**
     * Replaces the timer globals, `Promise.prototype.then` and the PyProxy call entry points. `module` is the
     * Emscripten Module of the booted runtime (`pyodide._module`).
     */
    install({ module, api, log }: {
        module: Record<string, unknown>;
        api: Record<string, unknown>;
        log: (message: string) => void;
    }): void;
    /** `original`, refused (undefined) while Python may not be entered. */
    private gate;
    /** Runs the worker's own work (sync or async) with Python and scheduling allowed outside a cell. */
    host<T>(work: () => T | Promise<T>): Promise<T>;
    /** A cell starts: from now its callbacks may run. */
    begin(): void;
    /**
     * True while the running cell has scheduled nothing that could run later (no timer, microtask, promise reaction
     * into Python or package load): the harness then finishes the cell in one call, with no settle step. Reachable
     * from Python (pyodide_js._pyodide_mcp_cell_idle); a lie only finishes a cell early, and end() still cancels
     * whatever it left.
     */
    get idle(): boolean;
    /**
     * Lets the cell's work finish inside the cell: microtasks and due callbacks run; while asyncio tasks the cell
     * started are unfinished, the event loop keeps turning (timers fire when due) until they are done or the host
     * interrupts. A cell's bare JavaScript timers do not keep it waiting: those not yet due are cancelled by end().
     */
    settle(options: SettleOptions): Promise<Settled>;
    /** The cell ends: its timers are cancelled; its callbacks and promise reactions are refused from now on. */
    end(): void;
    private cancel;
    private hasDue;
    private nextDue;
    private fire;
    /** An uncaught error of one of the cell's callbacks: kept for the reply, or fatal. */
    private record;
}
/** The one cell scope of this worker. */
export declare const cellScope: CellScope;
export {};
