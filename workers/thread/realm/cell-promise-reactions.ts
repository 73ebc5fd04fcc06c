/**
 * Promise reactions that enter Python run only while the cell that registered them lasts (a mechanism of the cell
 * scope, cell-scope.ts).
 *
 * Why: a cell can hand Python to a promise (`js_promise.then(f)`, an awaited JavaScript promise in asyncio) whose
 * reaction would otherwise run whenever the promise settles, after the cell's reply, outside its time limit and file
 * quota. `install` replaces `Promise.prototype.then`: a callback that enters Python (a PyProxy, or one of Pyodide's
 * promise handles / once-callables, which carry an own `destroy`) registered inside a cell is tied to that cell;
 * registered outside any cell, it never runs. Plain JavaScript callbacks (Pyodide's own continuations,
 * Promise.all's resolvers) are untouched, and so is the worker's own work (`host()`).
 * Everything used here is captured when this module is first imported, before user code exists.
 */
import { types } from 'node:util';
import { NOBODY, type CellState } from './cell-state.js';

const realThen = Promise.prototype.then;
const PromiseType = Promise;
const apply = Reflect.apply;
const defineProperty = Object.defineProperty;
const hasOwnProperty = Object.prototype.hasOwnProperty;
const isProxy = types.isProxy;

/** Replaces `Promise.prototype.then` of the realm. */
export function scopePromiseReactions(state: CellState): void {
  // Promise reactions that would enter Python: tied to the cell that registered them.
  const scoped = (callback: unknown): unknown => {
    if (typeof callback !== 'function') return callback;
    if (!isProxy(callback) && !apply(hasOwnProperty, callback, ['destroy'])) return callback;
    const owner = state.inCell ? state.generation : NOBODY;
    if (state.inCell) state.scheduled++;
    return function (this: unknown, ...args: unknown[]) {
      if (!state.inCell || state.generation !== owner) {
        state.refused++;
        return undefined;
      }
      state.activity++;
      return apply(callback as Function, this, args);
    };
  };
  // (void: defineProperty returns the prototype, which the type checker takes for a promise.)
  void defineProperty(PromiseType.prototype, 'then', {
    value: function then(this: unknown, onFulfilled?: unknown, onRejected?: unknown) {
      if (state.hostDepth > 0) return apply(realThen, this, [onFulfilled, onRejected]);
      return apply(realThen, this, [scoped(onFulfilled), scoped(onRejected)]);
    },
    writable: true,
    configurable: true,
    enumerable: false,
  });
}
