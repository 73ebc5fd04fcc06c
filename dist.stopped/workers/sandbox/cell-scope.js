/**
 * Cell scope: user code runs only inside a cell (or, for the worker's own work, inside `host()`).
 *
 * Why: a cell's Python can leave work behind in the worker's JavaScript event loop, e.g.
 * `js.setTimeout(create_proxy(f), 10)`, a `js_promise.then(f)`, or Pyodide's asyncio loop (WebLoop schedules
 * every callback through `pyodide._api.scheduleCallback`, which in Node is `setImmediate` for delays <= 2 ms
 * and `setTimeout` otherwise, both looked up on `globalThis` at call time). Measured before this module: such a
 * callback ran after the cell's reply, outside the file quota, and wrote a 300 MB file past a 50 MB limit.
 *
 * What this does, once `install()` ran (at the end of lockdown, before any user code):
 *  - Timers: `setTimeout`, `setInterval`, `setImmediate`, `queueMicrotask` (and the clear* functions) on the
 *    realm's global object are replaced. Inside a cell every callback is recorded and tied to that cell; after the
 *    cell it is cancelled, and anything still firing is refused. Outside a cell scheduling throws. Handles are plain
 *    numbers: Node's Timeout/Immediate objects would hand out `refresh()` and their constructors, which schedule
 *    without going through here.
 *  - Promise reactions: `Promise.prototype.then` registered inside a cell with a callback that enters Python (a
 *    PyProxy, or one of Pyodide's promise handles / once-callables, which carry an own `destroy`) only runs while
 *    that cell lasts. Plain JavaScript callbacks (Pyodide's own continuations, Promise.all's resolvers) are untouched.
 *  - Entry gate: `Module.callPyObject` / `callPyObjectMaybePromising` (where a call of a PyProxy from JavaScript
 *    enters Python, in both distributions) and, in Pyodide 314, the PyProxy methods that enter Python without them
 *    (`callKwargs`, `callWithOptions`, `callPromising*`, `callKwargsRelaxed`) refuse while no cell or host work
 *    runs, whatever JavaScript source (stream, event, a handle bound by user code) made the call.
 *  - `pyodide_js.loadPackage` called by a cell: the cell waits for it (Pyodide's loader calls back into Python,
 *    which would otherwise be refused after the cell, leaving a package half installed).
 *  - `settle()`: after the cell's code returns, the worker lets the cell's ready callbacks and microtasks run, and
 *    keeps the event loop turning while asyncio tasks started by the cell are unfinished, until the host's interrupt
 *    (the cell's deadline). `end()` then cancels whatever is left.
 * asyncio, measured before this module (Node 20.20): `asyncio.run()` and `loop.run_until_complete()` fail on both
 * runtimes (314: "WebAssembly stack switching not supported", no JSPI in Node 20; 0.17: "cannot be called from a
 * running event loop"), top-level `await` was a SyntaxError, and `asyncio.ensure_future(...)` tasks ran between
 * cells. Now such tasks finish inside their cell, and a cell may `await` at top level (harness.py).
 * Not covered: Python entered by Pyodide's own code outside these entry points (a PyProxy of a user object being
 * garbage-collected runs its `__del__`). The file quota (workspace.ts) holds whenever Python runs.
 * Everything used here is captured when this module is first imported, before user code exists.
 */
import { types } from 'node:util';
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;
const realSetInterval = globalThis.setInterval;
const realClearInterval = globalThis.clearInterval;
const realSetImmediate = globalThis.setImmediate;
const realClearImmediate = globalThis.clearImmediate;
const realQueueMicrotask = globalThis.queueMicrotask;
const realThen = Promise.prototype.then;
const PromiseType = Promise;
const apply = Reflect.apply;
const defineProperty = Object.defineProperty;
const getPrototypeOf = Reflect.getPrototypeOf;
const getOwnPropertyDescriptor = Reflect.getOwnPropertyDescriptor;
const hasOwnProperty = Object.prototype.hasOwnProperty;
const includes = String.prototype.includes;
const startsWith = String.prototype.startsWith;
const slice = String.prototype.slice;
const max = Math.max;
const min = Math.min;
const isProxy = types.isProxy;
const now = performance.now.bind(performance);
const rangeErrorPrototype = RangeError.prototype;
const trapPrototype = globalThis.WebAssembly.RuntimeError
    .prototype;
const toText = String;
const TypeErrorType = TypeError;
const ErrorType = Error;
/** Text of a refusal to schedule outside a cell. */
export const OUTSIDE_CELL = 'refused: no cell is running (pyodide-mcp runs user code only inside a cell)';
/** While settling, how often the interrupt signal is polled when nothing is due earlier. */
const POLL_MS = 10;
/** Errors of a cell's callbacks kept for the reply (each cut to MAX_ERROR_CHARS); the rest are counted. */
const MAX_ERRORS = 20;
const MAX_ERROR_CHARS = 4000;
const HOST = -1;
/** Promise reactions registered while no cell or host work runs (an escaped callback): never allowed to run. */
const NOBODY = -2;
/** PyProxy methods of Pyodide 314 that enter Python without going through Module.callPyObject. */
const DIRECT_CALLS = ['callKwargs', 'callWithOptions', 'callPromising', 'callPromisingKwargs', 'callKwargsRelaxed'];
/** Python callables of every common kind, whose PyProxy classes exist from boot (see install). */
const CALLABLE_SAMPLES = [
    '__import__("pyodide.code").code.eval_code',
    'lambda: None',
    'len',
    '(0).__add__',
    'object().__str__',
    'type',
    '__import__("functools").partial(len)',
];
/** `value` has `prototype` on its prototype chain (no user-patchable lookups: not `instanceof`). */
function inherits(value, prototype) {
    try {
        for (let p = getPrototypeOf(value); p !== null; p = getPrototypeOf(p))
            if (p === prototype)
                return true;
    }
    catch {
        // a revoked proxy or similar: not an engine error
    }
    return false;
}
const has = (text, part) => apply(includes, text, [part]);
/**
 * Why an error thrown out of Python means the interpreter cannot be used any more, or null. Measured (Node 20.20,
 * 4 MB worker stack): deep recursion overflows the JavaScript stack (RangeError "Maximum call stack size exceeded")
 * inside wasm; Pyodide 314 tags the error `pyodide_fatal_error` and keeps answering with an inconsistent interpreter,
 * 0.17 answers "Pyodide already fatally failed" from then on; a trap (WebAssembly.RuntimeError, e.g. "memory access
 * out of bounds" when 0.17 pickles a 200,000-deep list) leaves it the same.
 */
export function fatalReason(error) {
    if (error === null || (typeof error !== 'object' && typeof error !== 'function'))
        return null;
    const err = error;
    const message = toText(err.message);
    if (err.name === 'ExitStatus' || apply(startsWith, message, ['Program terminated with exit('])) {
        return `Python ended its process (${message}), e.g. with os._exit() or a signal to itself; the session has ended.`;
    }
    const flagged = err.pyodide_fatal_error === true;
    if ((flagged || inherits(err, rangeErrorPrototype)) && has(message, 'call stack')) {
        return ('Python overflowed the JavaScript stack (RangeError: Maximum call stack size exceeded), e.g. by very deep ' +
            'recursion (through repr/json/pickle/copy of deeply nested data, or past a raised recursion limit). ' +
            'Pyodide cannot continue after this; the session has ended.');
    }
    if (flagged || inherits(err, trapPrototype) || has(message, 'Pyodide already fatally failed')) {
        return `The Python interpreter failed fatally (${apply(slice, message, [0, 300])}) and cannot continue; the session has ended.`;
    }
    return null;
}
class CellScope {
    installed = false;
    /** The running cell's number; 0 before the first. Callbacks of any other number are refused. */
    generation = 0;
    inCell = false;
    /** Nesting of the worker's own work (package loading, harness calls) outside a cell. */
    hostDepth = 0;
    nextId = 1;
    /** Scheduled timers by id. A null-prototype object walked with for-in: no Map/iterator methods user code could patch. */
    entries = Object.create(null);
    errors = [];
    moreErrors = 0;
    fatal = null;
    interruptedByCallback = false;
    refused = 0;
    /** Callbacks of the cell that ran (only they can start asyncio tasks after the cell's code returned). */
    activity = 0;
    /** Package loads started by the running cell and not finished. */
    loads = 0;
    /** What the running cell scheduled (timers, microtasks, promise reactions into Python). */
    scheduled = 0;
    log = () => { };
    /** May Python be entered now (from JavaScript)? */
    get open() {
        return this.inCell || this.hostDepth > 0;
    }
    /**
     * Replaces the timer globals, `Promise.prototype.then` and the PyProxy call entry points. `module` is the
     * Emscripten Module of the booted runtime (`pyodide._module`).
     */
    install({ module, api, log }) {
        if (this.installed)
            return;
        this.log = log;
        const g = globalThis;
        const self = this;
        // For the harness's one-call fast path (see `idle`).
        defineProperty(api, '_pyodide_mcp_cell_idle', { value: () => self.idle, writable: false, configurable: false, enumerable: false });
        const set = (name, value) => {
            defineProperty(value, 'name', { value: name });
            defineProperty(g, name, { value, writable: true, configurable: true, enumerable: true });
        };
        const schedule = (kind, callback, delay, args, name) => {
            if (typeof callback !== 'function')
                throw new TypeErrorType(`${name}: the callback must be a function`);
            if (!self.open)
                throw new ErrorType(`${name} ${OUTSIDE_CELL}`);
            const owner = self.inCell ? self.generation : HOST;
            if (self.inCell)
                self.scheduled++;
            const id = self.nextId++;
            const ms = kind === 'immediate' ? 0 : max(1, +delay || 0);
            const entry = { kind, handle: undefined, owner, due: now() + ms };
            const fire = () => {
                if (kind === 'interval')
                    entry.due = now() + ms;
                else
                    delete self.entries[id];
                self.fire(owner, callback, args);
            };
            entry.handle =
                kind === 'immediate' ? realSetImmediate(fire) : kind === 'interval' ? realSetInterval(fire, ms) : realSetTimeout(fire, ms);
            self.entries[id] = entry;
            return id;
        };
        const clear = (id) => {
            const entry = typeof id === 'number' ? self.entries[id] : undefined;
            if (!entry)
                return;
            delete self.entries[id];
            self.cancel(entry);
        };
        set('setTimeout', function setTimeout(callback, delay, ...args) {
            return schedule('timeout', callback, delay, args, 'setTimeout');
        });
        set('setInterval', function setInterval(callback, delay, ...args) {
            return schedule('interval', callback, delay, args, 'setInterval');
        });
        set('setImmediate', function setImmediate(callback, ...args) {
            return schedule('immediate', callback, 0, args, 'setImmediate');
        });
        set('clearTimeout', function clearTimeout(id) {
            clear(id);
        });
        set('clearInterval', function clearInterval(id) {
            clear(id);
        });
        set('clearImmediate', function clearImmediate(id) {
            clear(id);
        });
        set('queueMicrotask', function queueMicrotask(callback) {
            if (typeof callback !== 'function')
                throw new TypeErrorType('queueMicrotask: the callback must be a function');
            if (!self.open)
                throw new ErrorType(`queueMicrotask ${OUTSIDE_CELL}`);
            const owner = self.inCell ? self.generation : HOST;
            if (self.inCell)
                self.scheduled++;
            realQueueMicrotask(() => self.fire(owner, callback, []));
        });
        // Promise reactions that would enter Python: tied to the cell that registered them.
        const scoped = (callback) => {
            if (typeof callback !== 'function')
                return callback;
            if (!isProxy(callback) && !apply(hasOwnProperty, callback, ['destroy']))
                return callback;
            const owner = self.inCell ? self.generation : NOBODY;
            if (self.inCell)
                self.scheduled++;
            return function (...args) {
                if (!self.inCell || self.generation !== owner) {
                    self.refused++;
                    return undefined;
                }
                self.activity++;
                return apply(callback, this, args);
            };
        };
        // (void: defineProperty returns the prototype, which the type checker takes for a promise.)
        void defineProperty(PromiseType.prototype, 'then', {
            value: function then(onFulfilled, onRejected) {
                if (self.hostDepth > 0)
                    return apply(realThen, this, [onFulfilled, onRejected]);
                return apply(realThen, this, [scoped(onFulfilled), scoped(onRejected)]);
            },
            writable: true,
            configurable: true,
            enumerable: false,
        });
        // Entry gate, read-only so that user code cannot swap it for something else.
        for (const name of ['callPyObject', 'callPyObjectMaybePromising']) {
            const original = module[name];
            if (typeof original !== 'function')
                continue;
            defineProperty(module, name, { value: this.gate(original), writable: false, configurable: false, enumerable: true });
        }
        if (typeof module.callPyObject !== 'function')
            throw new Error('cell scope: this Pyodide has no Module.callPyObject to gate');
        // Pyodide 314: PyProxy methods that call Python directly. Patched on each PyProxy class when the class is handed
        // out (every new PyProxy asks Module.getPyProxyClass), and now on the classes of the proxies the API holds already.
        const patch = (prototype) => {
            if ((typeof prototype !== 'object' && typeof prototype !== 'function') || prototype === null)
                return;
            for (let i = 0; i < DIRECT_CALLS.length; i++) {
                const descriptor = getOwnPropertyDescriptor(prototype, DIRECT_CALLS[i]);
                // Already patched (read-only) or not a callable class: nothing to do.
                if (!descriptor || descriptor.configurable === false || typeof descriptor.value !== 'function')
                    continue;
                defineProperty(prototype, DIRECT_CALLS[i], {
                    value: this.gate(descriptor.value),
                    writable: false,
                    configurable: false,
                    enumerable: false,
                });
            }
        };
        const getPyProxyClass = module.getPyProxyClass;
        if (typeof getPyProxyClass === 'function') {
            defineProperty(module, 'getPyProxyClass', {
                value: function (...args) {
                    const cls = apply(getPyProxyClass, this, args);
                    patch(cls?.prototype);
                    return cls;
                },
                writable: false,
                configurable: false,
                enumerable: true,
            });
            // Classes made at boot (and cached) whose proxies user code can reach: those of the proxies on pyodide_js and
            // pyodide_js._api, and those of Python functions, builtins, methods and types (e.g. the cached proxy of
            // pyodide.code.eval_code that pyodide_js.runPython calls); asking for a fresh proxy of each patches its class.
            for (const holder of [api, api._api]) {
                if (typeof holder !== 'object' || holder === null)
                    continue;
                for (const key of Reflect.ownKeys(holder)) {
                    const descriptor = getOwnPropertyDescriptor(holder, key);
                    if (descriptor && 'value' in descriptor && isProxy(descriptor.value))
                        patch(getPrototypeOf(descriptor.value));
                }
            }
            const runPython = api.runPython;
            // Only Pyodide 314 has these methods (its pyodide.code module is a PyProxy on the internal API).
            if (typeof runPython === 'function' && isProxy(api._api?.pyodide_code)) {
                this.hostDepth++;
                try {
                    for (const sample of CALLABLE_SAMPLES) {
                        const proxy = apply(runPython, api, [sample]);
                        if (isProxy(proxy))
                            proxy?.destroy?.();
                    }
                }
                catch (error) {
                    throw new Error(`cell scope: could not patch the PyProxy classes made at boot (${error?.message})`, { cause: error });
                }
                finally {
                    this.hostDepth--;
                }
            }
        }
        // A cell's own package loads finish inside the cell. Read-only: the worker's own loads call this too, and user
        // code must not put its own function there (it would run in the worker's trusted install windows).
        for (const name of ['loadPackage', 'loadPackagesFromImports']) {
            const original = api[name];
            if (typeof original !== 'function')
                continue;
            const tracked = function (...args) {
                const result = apply(original, this, args);
                if (self.inCell && result !== null && typeof result === 'object') {
                    const owner = self.generation;
                    self.loads++;
                    const done = () => {
                        if (self.generation === owner)
                            self.loads--;
                    };
                    try {
                        void apply(realThen, result, [done, done]);
                    }
                    catch {
                        self.loads--;
                    }
                }
                return result;
            };
            defineProperty(api, name, { value: tracked, writable: false, configurable: false, enumerable: true });
        }
        this.installed = true;
    }
    /** `original`, refused (undefined) while Python may not be entered. */
    gate(original) {
        const self = this;
        return function (...args) {
            if (!self.open) {
                self.refused++;
                return undefined;
            }
            self.activity++;
            return apply(original, this, args);
        };
    }
    /** Runs the worker's own work (sync or async) with Python and scheduling allowed outside a cell. */
    async host(work) {
        this.hostDepth++;
        try {
            return await work();
        }
        finally {
            this.hostDepth--;
        }
    }
    /** A cell starts: from now its callbacks may run. */
    begin() {
        if (this.inCell)
            this.end();
        this.generation++;
        this.inCell = true;
        this.errors = [];
        this.moreErrors = 0;
        this.fatal = null;
        this.interruptedByCallback = false;
        this.loads = 0;
        this.scheduled = 0;
    }
    /**
     * True while the running cell has scheduled nothing that could run later (no timer, microtask, promise reaction
     * into Python or package load): the harness then finishes the cell in one call, with no settle step. Reachable
     * from Python (pyodide_js._pyodide_mcp_cell_idle); a lie only finishes a cell early, and end() still cancels
     * whatever it left.
     */
    get idle() {
        return this.inCell && this.scheduled === 0 && this.loads === 0;
    }
    /**
     * Lets the cell's work finish inside the cell: microtasks and due callbacks run; while asyncio tasks the cell
     * started are unfinished, the event loop keeps turning (timers fire when due) until they are done or the host
     * interrupts. A cell's bare JavaScript timers do not keep it waiting: those not yet due are cancelled by end().
     */
    async settle(options) {
        let interrupted = false;
        let tasks = options.tasksAtStart;
        let seen = this.activity;
        for (;;) {
            await new PromiseType((resolve) => realSetImmediate(resolve));
            if (this.fatal !== null)
                break;
            if (this.interruptedByCallback || options.interrupted()) {
                interrupted = true;
                break;
            }
            if (this.hasDue())
                continue;
            if (this.activity !== seen) {
                tasks = options.pendingTasks();
                seen = this.activity; // the question itself entered Python
            }
            if (tasks < 0) {
                interrupted = true;
                break;
            }
            if (tasks === 0 && this.loads === 0)
                break;
            const next = this.nextDue();
            const wait = next === undefined ? POLL_MS : min(POLL_MS, max(1, next - now()));
            await new PromiseType((resolve) => realSetTimeout(resolve, wait));
        }
        let pendingTimers = 0;
        for (const id in this.entries)
            if (this.entries[id].owner === this.generation)
                pendingTimers++;
        return { interrupted, fatal: this.fatal, errors: this.errors, moreErrors: this.moreErrors, pendingTimers };
    }
    /** The cell ends: its timers are cancelled; its callbacks and promise reactions are refused from now on. */
    end() {
        if (!this.inCell)
            return;
        this.inCell = false;
        for (const id in this.entries) {
            const entry = this.entries[id];
            if (entry.owner === HOST)
                continue;
            delete this.entries[id];
            this.cancel(entry);
        }
        if (this.refused > 0) {
            this.log(`cell scope: refused ${this.refused} call(s) into Python from callbacks outside their cell`);
            this.refused = 0;
        }
    }
    cancel(entry) {
        if (entry.kind === 'immediate')
            realClearImmediate(entry.handle);
        else if (entry.kind === 'interval')
            realClearInterval(entry.handle);
        else
            realClearTimeout(entry.handle);
    }
    hasDue() {
        const soon = now() + 1;
        for (const id in this.entries) {
            const entry = this.entries[id];
            if (entry.owner === this.generation && (entry.kind === 'immediate' || entry.due <= soon))
                return true;
        }
        return false;
    }
    nextDue() {
        let next;
        for (const id in this.entries) {
            const entry = this.entries[id];
            if (entry.owner === this.generation && entry.kind !== 'immediate' && (next === undefined || entry.due < next))
                next = entry.due;
        }
        return next;
    }
    fire(owner, callback, args) {
        if (owner === HOST) {
            this.hostDepth++;
            try {
                apply(callback, undefined, args);
            }
            finally {
                this.hostDepth--;
            }
            return;
        }
        if (!this.inCell || owner !== this.generation) {
            this.refused++;
            return;
        }
        this.activity++;
        try {
            apply(callback, undefined, args);
        }
        catch (error) {
            this.record(error);
        }
    }
    /** An uncaught error of one of the cell's callbacks: kept for the reply, or fatal. */
    record(error) {
        if (fatalReason(error) !== null) {
            if (this.fatal === null)
                this.fatal = error;
            return;
        }
        const err = error;
        // Pyodide 314 prints a callback's Python traceback to sys.stderr (the cell's) and leaves `message` empty.
        const text = toText(err?.message || (typeof err?.type === 'string' ? `${err.type} (traceback above)` : error));
        // The host's interrupt (deadline, cancellation) landed in a callback: the reply reports it, not as a callback error.
        if (err?.type === 'KeyboardInterrupt' || has(apply(slice, text, [-300]), '\nKeyboardInterrupt')) {
            this.interruptedByCallback = true;
            return;
        }
        if (this.errors.length >= MAX_ERRORS)
            this.moreErrors++;
        else
            this.errors[this.errors.length] = text.length > MAX_ERROR_CHARS ? `${apply(slice, text, [0, MAX_ERROR_CHARS])} [... cut]` : text;
    }
}
/** The one cell scope of this worker. */
export const cellScope = new CellScope();
