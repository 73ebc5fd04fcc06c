/**
 * The entry gate: JavaScript calls into Python are refused while no cell or host work runs (a mechanism of the cell
 * scope, cell-scope.ts).
 *
 * Why: whatever JavaScript source calls a PyProxy (a stream, an event, a handle bound by user code), the call enters
 * Python through a few functions; gated there, no escaped callback can run Python between cells, whatever the timers
 * and promise reactions missed. `gatePythonEntry` wraps `Module.callPyObject` / `callPyObjectMaybePromising` (where
 * a call of a PyProxy enters Python, in both distributions) and, in Pyodide 314, the PyProxy methods that enter
 * Python without them (`callKwargs`, `callWithOptions`, `callPromising*`, `callKwargsRelaxed`). Each is read-only,
 * so that user code cannot swap it for something else.
 * Everything used here is captured when this module is first imported, before user code exists.
 */
import { types } from 'node:util';
import type { CellState } from './cell-state.js';

const apply = Reflect.apply;
const defineProperty = Object.defineProperty;
const getPrototypeOf = Reflect.getPrototypeOf;
const getOwnPropertyDescriptor = Reflect.getOwnPropertyDescriptor;
const isProxy = types.isProxy;

/** PyProxy methods of Pyodide 314 that enter Python without going through Module.callPyObject. */
const DIRECT_CALLS = ['callKwargs', 'callWithOptions', 'callPromising', 'callPromisingKwargs', 'callKwargsRelaxed'];
/** Python callables of every common kind, whose PyProxy classes exist from boot (see gatePythonEntry). */
const CALLABLE_SAMPLES = [
  '__import__("pyodide.code").code.eval_code',
  'lambda: None',
  'len',
  '(0).__add__',
  'object().__str__',
  'type',
  '__import__("functools").partial(len)',
];

/** `original`, refused (undefined) while Python may not be entered. */
function gate(state: CellState, original: Function): Function {
  return function (this: unknown, ...args: unknown[]) {
    if (!state.open) {
      state.refused++;
      return undefined;
    }
    state.activity++;
    return apply(original, this, args);
  };
}

/**
 * Gates every JavaScript entry into Python. `module` is the Emscripten Module of the booted runtime
 * (`pyodide._module`), `api` the Pyodide API object (`pyodide_js`).
 */
export function gatePythonEntry(state: CellState, module: Record<string, unknown>, api: Record<string, unknown>): void {
  for (const name of ['callPyObject', 'callPyObjectMaybePromising']) {
    const original = module[name];
    if (typeof original !== 'function') continue;
    defineProperty(module, name, { value: gate(state, original), writable: false, configurable: false, enumerable: true });
  }
  if (typeof module.callPyObject !== 'function') throw new Error('cell scope: this Pyodide has no Module.callPyObject to gate');

  // Pyodide 314: PyProxy methods that call Python directly. Patched on each PyProxy class when the class is handed
  // out (every new PyProxy asks Module.getPyProxyClass), and now on the classes of the proxies the API holds already.
  const patch = (prototype: unknown) => {
    if ((typeof prototype !== 'object' && typeof prototype !== 'function') || prototype === null) return;
    for (let i = 0; i < DIRECT_CALLS.length; i++) {
      const descriptor = getOwnPropertyDescriptor(prototype, DIRECT_CALLS[i]!);
      // Already patched (read-only) or not a callable class: nothing to do.
      if (!descriptor || descriptor.configurable === false || typeof descriptor.value !== 'function') continue;
      defineProperty(prototype, DIRECT_CALLS[i]!, {
        value: gate(state, descriptor.value as Function),
        writable: false,
        configurable: false,
        enumerable: false,
      });
    }
  };
  const getPyProxyClass = module.getPyProxyClass;
  if (typeof getPyProxyClass !== 'function') return;
  defineProperty(module, 'getPyProxyClass', {
    value: function (this: unknown, ...args: unknown[]) {
      const cls = apply(getPyProxyClass, this, args) as { prototype?: unknown };
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
    if (typeof holder !== 'object' || holder === null) continue;
    for (const key of Reflect.ownKeys(holder)) {
      const descriptor = getOwnPropertyDescriptor(holder, key);
      if (descriptor && 'value' in descriptor && isProxy(descriptor.value)) patch(getPrototypeOf(descriptor.value as object));
    }
  }
  const runPython = api.runPython;
  // Only Pyodide 314 has these methods (its pyodide.code module is a PyProxy on the internal API).
  if (typeof runPython === 'function' && isProxy((api._api as Record<string, unknown> | undefined)?.pyodide_code)) {
    state.hostDepth++;
    try {
      for (const sample of CALLABLE_SAMPLES) {
        const proxy = apply(runPython, api, [sample]) as { destroy?: () => void } | undefined;
        if (isProxy(proxy)) proxy?.destroy?.();
      }
    } catch (error) {
      throw new Error(`cell scope: could not patch the PyProxy classes made at boot (${(error as Error)?.message})`, { cause: error });
    } finally {
      state.hostDepth--;
    }
  }
}
