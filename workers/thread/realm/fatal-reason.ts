/**
 * Which errors thrown out of Python mean the interpreter cannot be used any more.
 *
 * Why: after a JavaScript stack overflow inside wasm, a wasm trap or an `os._exit()`, Pyodide keeps answering, but
 * with an inconsistent interpreter; the worker must end the session with the reason instead of serving more calls.
 * The cell scope (a callback's error), the deferred finalizers and the worker's own calls into Python all ask here.
 * Everything used here is captured when this module is first imported, before user code exists.
 */

const apply = Reflect.apply;
const getPrototypeOf = Reflect.getPrototypeOf;
const includes = String.prototype.includes;
const startsWith = String.prototype.startsWith;
const slice = String.prototype.slice;
const rangeErrorPrototype = RangeError.prototype;
const trapPrototype = (globalThis as unknown as { WebAssembly: { RuntimeError: { prototype: object } } }).WebAssembly.RuntimeError
  .prototype;
const toText = String;

/** `value` has `prototype` on its prototype chain (no user-patchable lookups: not `instanceof`). */
function inherits(value: object, prototype: object): boolean {
  try {
    for (let p = getPrototypeOf(value); p !== null; p = getPrototypeOf(p)) if (p === prototype) return true;
  } catch {
    // a revoked proxy or similar: not an engine error
  }
  return false;
}

/** `text` contains `part`, through the captured String.prototype.includes. */
export const has = (text: string, part: string) => apply(includes, text, [part]) as boolean;

/**
 * Why an error thrown out of Python means the interpreter cannot be used any more, or null. Measured (Node 20.20,
 * 4 MB worker stack): deep recursion overflows the JavaScript stack (RangeError "Maximum call stack size exceeded")
 * inside wasm; Pyodide 314 tags the error `pyodide_fatal_error` and keeps answering with an inconsistent interpreter,
 * 0.17 answers "Pyodide already fatally failed" from then on; a trap (WebAssembly.RuntimeError, e.g. "memory access
 * out of bounds" when 0.17 pickles a 200,000-deep list) leaves it the same.
 */
export function fatalReason(error: unknown): string | null {
  if (error === null || (typeof error !== 'object' && typeof error !== 'function')) return null;
  const err = error as { name?: unknown; message?: unknown; pyodide_fatal_error?: unknown };
  const message = toText(err.message);
  if (err.name === 'ExitStatus' || apply(startsWith, message, ['Program terminated with exit('])) {
    return `Python ended its process (${message}), e.g. with os._exit() or a signal to itself; the session has ended.`;
  }
  const flagged = err.pyodide_fatal_error === true;
  if ((flagged || inherits(err, rangeErrorPrototype)) && has(message, 'call stack')) {
    return (
      'Python overflowed the JavaScript stack (RangeError: Maximum call stack size exceeded), e.g. by very deep ' +
      'recursion (through repr/json/pickle/copy of deeply nested data, or past a raised recursion limit). ' +
      'Pyodide cannot continue after this; the session has ended.'
    );
  }
  if (flagged || inherits(err, trapPrototype) || has(message, 'Pyodide already fatally failed')) {
    return `The Python interpreter failed fatally (${apply(slice, message, [0, 300])}) and cannot continue; the session has ended.`;
  }
  return null;
}
