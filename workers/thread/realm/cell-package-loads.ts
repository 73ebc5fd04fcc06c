/**
 * A cell's own package loads finish inside the cell (a mechanism of the cell scope, cell-scope.ts).
 *
 * Why: `pyodide_js.loadPackage` called by a cell returns at once and finishes later; Pyodide's loader then calls back
 * into Python, which would be refused after the cell ended, leaving a package half installed. `trackPackageLoads`
 * counts the running cell's loads (`CellState.loads`) so that the scope's settle step waits for them.
 * Everything used here is captured when this module is first imported, before user code exists.
 */
import type { CellState } from './cell-state.js';

const realThen = Promise.prototype.then;
const apply = Reflect.apply;
const defineProperty = Object.defineProperty;

/** Wraps `loadPackage` and `loadPackagesFromImports` of the Pyodide API object. */
export function trackPackageLoads(state: CellState, api: Record<string, unknown>): void {
  // Read-only: the worker's own loads call these too, and user code must not put its own function there (it would
  // run in the worker's trusted install windows).
  for (const name of ['loadPackage', 'loadPackagesFromImports']) {
    const original = api[name];
    if (typeof original !== 'function') continue;
    const tracked = function (this: unknown, ...args: unknown[]) {
      const result = apply(original as Function, this, args);
      if (state.inCell && result !== null && typeof result === 'object') {
        const owner = state.generation;
        state.loads++;
        const done = () => {
          if (state.generation === owner) state.loads--;
        };
        try {
          void apply(realThen, result, [done, done]);
        } catch {
          state.loads--;
        }
      }
      return result;
    };
    defineProperty(api, name, { value: tracked, writable: false, configurable: false, enumerable: true });
  }
}
