/**
 * The legacy runtime's stand-in for `Function` (a layer of the lockdown, lockdown.ts: no code generation from strings).
 *
 * Why: the legacy (0.17.1) pyodide.asm.js makes callable PyProxy targets with `Reflect.construct(Function, [], cls)`,
 * which needs code generation from strings, off in session workers. runtime/legacy.ts passes this as a wrapper
 * parameter named `Function`: it builds the same thing, an empty function whose prototype is `cls.prototype`, without
 * compiling a string. Called with a body (real code), it refuses like `Function` would.
 */
import { SANDBOX_REFUSAL } from './sandbox-refusal.js';

export const CallableTargetConstructor = function CallableTarget(this: unknown, ...args: unknown[]): unknown {
  if (args.length > 0 || new.target === undefined) {
    throw new EvalError(`Code generation from strings is ${SANDBOX_REFUSAL}`);
  }
  const target = function () {};
  Object.setPrototypeOf(target, new.target.prototype as object);
  return target;
} as unknown as FunctionConstructor;
Object.defineProperty(CallableTargetConstructor, 'prototype', { value: Function.prototype });
