/**
 * Deferred finalizers: the cleanup callbacks of every FinalizationRegistry in the worker's realm wait for the next
 * cell instead of running when the JavaScript garbage collector decides.
 *
 * Why: both Pyodide distributions release a PyProxy through a FinalizationRegistry whose callback calls
 * `_Py_DecRef` (0.17.1: pyproxy_init_js; 314: `Module.finalizationRegistry`, with `_check_gil`). When that drops
 * the last reference to a Python object, its `__del__` (and any weakref callback it triggers) runs right there,
 * outside any cell: no time limit, no interrupt, no output capture. Measured before this module (314, process
 * isolation): a cell that dropped `create_proxy(obj)` whose `__del__` loops left an idle session (`busy: false`)
 * burning a core, and the next request (list_packages) never got an answer.
 *
 * What this does: `install()` (before the runtime boots: both distributions read `globalThis.FinalizationRegistry`
 * while loading) replaces the global constructor with one whose registries queue `(cleanup, heldValue)` when the
 * collector reports a target gone. `drain()` runs what was queued; the harness calls it (through
 * `pyodide_js._pyodide_mcp_drain_finalizers`, set by cellScope.install) at the start of every cell and namespace
 * op, inside the harness call, so a `__del__` runs under that call's time limit and interrupt and prints into the
 * cell's output. The worker's own work between cells (package loads, wheel installs: the trusted windows of
 * file-quota.ts) therefore never runs a finalizer either.
 * Everything used here is captured when this module is first imported, before user code exists.
 */
import { fatalReason } from './fatal-reason.js';

const RealRegistry = globalThis.FinalizationRegistry;
const construct = Reflect.construct;
const apply = Reflect.apply;
const defineProperty = Object.defineProperty;
const TypeErrorType = TypeError;

class DeferredFinalizers {
  private installed = false;
  /** Cleanup callbacks and held values, alternating; a plain array indexed directly (no user-patchable methods). */
  private pending: unknown[] = [];

  /** Replaces `globalThis.FinalizationRegistry`; call before the runtime is loaded. Idempotent. */
  install(): void {
    if (this.installed) return;
    this.installed = true;
    const defer = (cleanup: unknown, held: unknown) => {
      const pending = this.pending;
      pending[pending.length] = cleanup;
      pending[pending.length] = held;
    };
    const Deferred = function FinalizationRegistry(this: unknown, cleanup: unknown) {
      if (new.target === undefined) throw new TypeErrorType("Constructor FinalizationRegistry requires 'new'");
      if (typeof cleanup !== 'function') throw new TypeErrorType('FinalizationRegistry: cleanup must be callable');
      const queue = (held: unknown) => defer(cleanup, held);
      return construct(RealRegistry, [queue], new.target) as object;
    };
    // Instances keep the real prototype (register/unregister are the engine's); the real constructor is no longer
    // reachable from it, so user code cannot build a registry whose callback runs between cells.
    defineProperty(Deferred, 'prototype', { value: RealRegistry.prototype, writable: false, enumerable: false, configurable: false });
    defineProperty(RealRegistry.prototype, 'constructor', { value: Deferred, writable: true, enumerable: false, configurable: true });
    defineProperty(globalThis, 'FinalizationRegistry', { value: Deferred, writable: true, enumerable: false, configurable: true });
  }

  /** Callbacks waiting for the next cell. */
  get size(): number {
    return this.pending.length / 2;
  }

  /**
   * Runs the callbacks queued so far (not those they queue in turn: those wait for the next drain). A callback that
   * throws does not stop the others. Returns how many ran.
   */
  drain(): number {
    const batch = this.pending;
    if (batch.length === 0) return 0;
    this.pending = [];
    for (let i = 0; i < batch.length; i += 2) {
      try {
        apply(batch[i] as (held: unknown) => unknown, undefined, [batch[i + 1]]);
      } catch (error) {
        // The interpreter is gone (Pyodide's callbacks report their failures as fatal): the caller ends the session.
        if (fatalReason(error) !== null) throw error;
        // Anything else is a user registry's own business.
      }
    }
    return batch.length / 2;
  }
}

/** The one finalizer queue of this worker. */
export const finalizers = new DeferredFinalizers();
