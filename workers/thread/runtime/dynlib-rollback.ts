/**
 * Undoes what the modern runtime's dynamic linker (Emscripten's, in pyodide.asm.mjs) leaves behind when a shared
 * library fails to load, so that the next attempt reports the real reason again and other libraries still load.
 *
 * What a failed load leaves (measured with a C extension that references an undefined symbol, Pyodide 314.0.7):
 *  1. Its `LDSO.loadedLibsByName` entry, whose `exports` stay the placeholder "loading". The next dlopen of the same
 *     file finds it and returns at once, so Python's `import` then says "dynamic module does not define module export
 *     function (PyInit_…)" instead of why the library did not load.
 *  2. Global-offset-table entries it created (`GOT`: one WebAssembly.Global per symbol a library imports through
 *     `GOT.mem` / `GOT.func`, or exports). The undefined symbol's entry stays at -1 and marked required, so
 *     `reportUndefinedSymbols` throws on it in every LATER library's load: each later compiled package fails too,
 *     blaming the first one's symbol. And the failed library's own exports, registered by `updateGOT` before the
 *     check failed: a later library importing one of those names would bind to the code and data of a library
 *     whose relocations and constructors never ran.
 *
 * What this does: it watches the linker through the objects Emscripten exports on the Module (`GOT`, `LDSO`,
 * `_emscripten_dlopen_promise`, `getPromise`: the same objects its closures use), without patching its source.
 *  - A load starts when `newDSO` puts a "loading" entry into `LDSO.loadedLibsByName` (a Proxy's `set` trap), and has
 *    succeeded when `moduleLoaded` replaces the entry's `exports` (an accessor put on the entry then).
 *  - GOT names are recorded as they are created (a Proxy as the GOT object's prototype: a new name's assignment
 *    reaches its `set` trap; an existing name's does not). A library's load creates its names while it is
 *    instantiated, after the libraries it needs were loaded; so at the start of any load, and once nothing loads,
 *    the names created since the last load that succeeded belong to a failed one, and are removed.
 *  - Once no load is in progress, every entry still "loading" is a failed load's, and is removed from
 *    `loadedLibsByName` (`forgetFailedLoads`). "No load in progress": the package loader's loads are asynchronous and
 *    counted from `_emscripten_dlopen_promise` until their promise settles; a Python `import` (or ctypes) loads
 *    synchronously, so whenever JavaScript or Python runs between two such loads, none is in progress. It is called
 *    before and after each package load (modern.ts), when the package loader starts a library (nothing else loads
 *    then: its lock), and before every Python import (the harness's finder, workers/python/import_hooks.py).
 *
 * Why this is sound: it only ever REMOVES entries, and a removal can only affect loads that come later. A running
 * library keeps the WebAssembly.Global objects it was instantiated with, so removing a GOT name changes nothing for
 * it; a later library asking for the name gets a fresh entry, resolved as usual or reported as undefined. A removed
 * `loadedLibsByName` entry makes the next dlopen load the file again (its failure is reported again; each attempt's
 * memory is not reclaimed, as Emscripten never frees a library's). The worst a wrong guess can do is make a later
 * load fail or load a library twice, never leave a library bound to a half-loaded one. The wrong guesses possible are
 * narrow and named here: a library whose C constructor itself dlopens another library (its own names, not yet
 * confirmed, are then removed when the nested load starts), and a library loaded by a cell that starts a package
 * load of its own and keeps importing while it runs (that load is then counted as in progress, and Emscripten's own
 * behaviour applies until it settles). Emscripten's `loadedLibsByHandle` entries are left alone: a failed dlopen's
 * handle is freed by the C side, and a later one at the same address replaces the entry.
 *
 * Security: the traps run inside the worker's own package loads (the trusted windows of file-quota.ts) as well as in
 * cells, so they use only what is captured here when the module loads, never a method user code could replace, and
 * the wrapped Module functions are made read-only.
 */

/** The `exports` placeholder Emscripten's `newDSO` gives a library while it loads. */
const LOADING = 'loading';

const apply = Reflect.apply;
const reflectSet = Reflect.set;
const defineProperty = Object.defineProperty;
const getPrototypeOf = Object.getPrototypeOf;
const setPrototypeOf = Object.setPrototypeOf;
const hasOwn = Object.hasOwn;
const ProxyType = Proxy;
const realThen = Promise.prototype.then;

/** What of Emscripten's Module the rollback uses. */
interface LinkerModule {
  GOT: Record<string, unknown>;
  LDSO: { loadedLibsByName: Record<string, unknown> };
  _emscripten_dlopen_promise: (...args: unknown[]) => number;
  getPromise: (id: number) => Promise<unknown>;
}

export interface DynlibRollback {
  /**
   * Removes what failed loads left (their `loadedLibsByName` entries and GOT names), unless a load is in progress.
   * Safe to call at any time, by anyone: it does nothing while one is.
   */
  forgetFailedLoads(): void;
}

/** Installs the watch on a booted modern runtime's Module (`pyodide._module`); throws if it is not the linker expected. */
export function installDynlibRollback(module: Record<string, unknown>): DynlibRollback {
  if (!isLinkerModule(module)) {
    throw new Error('modern runtime: Emscripten dynamic linker not as expected (GOT, LDSO, _emscripten_dlopen_promise, getPromise)');
  }
  const { GOT, LDSO } = module;
  const byName = LDSO.loadedLibsByName;
  /** GOT names created since the last library loaded or since the last removal: a failed load's, or the one running. */
  const unconfirmed: string[] = [];
  /** Libraries whose load started and has not succeeded (plain arrays indexed directly: no user-patchable methods). */
  const startedDsos: object[] = [];
  const startedNames: string[] = [];
  /** The package loader's asynchronous loads in progress, and their promise ids until `getPromise` hands them out. */
  let asyncLoads = 0;
  const asyncIds: number[] = [];

  const removeUnconfirmedNames = () => {
    for (let i = 0; i < unconfirmed.length; i++) delete GOT[unconfirmed[i]!];
    unconfirmed.length = 0;
  };

  const forgetFailedLoads = () => {
    if (asyncLoads > 0) return;
    removeUnconfirmedNames();
    for (let i = 0; i < startedDsos.length; i++) {
      const name = startedNames[i]!;
      if (byName[name] === startedDsos[i]) delete byName[name];
    }
    startedDsos.length = 0;
    startedNames.length = 0;
  };

  const loaded = (dso: object) => {
    // Every name created since this load started is its own or a library's it needed (all loaded): confirmed.
    unconfirmed.length = 0;
    for (let i = 0; i < startedDsos.length; i++) {
      if (startedDsos[i] !== dso) continue;
      for (let j = i + 1; j < startedDsos.length; j++) {
        startedDsos[j - 1] = startedDsos[j]!;
        startedNames[j - 1] = startedNames[j]!;
      }
      startedDsos.length--;
      startedNames.length--;
      return;
    }
  };

  const started = (dso: Record<string, unknown>, name: string) => {
    // The libraries still loading (this one's dependents) have not been instantiated yet: what is unconfirmed now
    // was created by a load that failed.
    removeUnconfirmedNames();
    let exports: unknown = LOADING;
    defineProperty(dso, 'exports', {
      get: () => exports,
      set: (value: unknown) => {
        exports = value;
        if (value !== LOADING) loaded(dso);
      },
      enumerable: true,
      configurable: false,
    });
    startedDsos[startedDsos.length] = dso;
    startedNames[startedNames.length] = name;
  };

  LDSO.loadedLibsByName = new ProxyType(byName, {
    set(target, name, value) {
      if (typeof name === 'string' && isLoadingDso(value)) started(value, name);
      return reflectSet(target, name, value);
    },
  });

  const gotPrototype = getPrototypeOf(GOT) as object;
  setPrototypeOf(
    GOT,
    new ProxyType(gotPrototype, {
      set(target, name, value, receiver) {
        // Reached only for a name GOT does not hold yet (an own property's assignment stops at GOT itself).
        if (receiver === GOT && typeof name === 'string' && !hasOwn(GOT, name)) unconfirmed[unconfirmed.length] = name;
        return reflectSet(target, name, value, receiver);
      },
    }),
  );

  const dlopenPromise = module._emscripten_dlopen_promise;
  const getPromise = module.getPromise;
  const settled = () => {
    asyncLoads--;
  };
  defineProperty(module, '_emscripten_dlopen_promise', {
    value: function (this: unknown, ...args: unknown[]): number {
      // The package loader starts a library (one at a time: its lock), so whatever is still "loading" failed.
      forgetFailedLoads();
      asyncLoads++;
      try {
        const id = apply(dlopenPromise, this, args) as number;
        asyncIds[asyncIds.length] = id;
        return id;
      } catch (error) {
        asyncLoads--;
        throw error;
      }
    },
    writable: false,
    configurable: false,
    enumerable: true,
  });
  defineProperty(module, 'getPromise', {
    value: function (this: unknown, id: number): Promise<unknown> {
      const promise = apply(getPromise, this, [id]) as Promise<unknown>;
      for (let i = 0; i < asyncIds.length; i++) {
        if (asyncIds[i] !== id) continue;
        asyncIds[i] = asyncIds[asyncIds.length - 1]!;
        asyncIds.length--;
        void apply(realThen, promise, [settled, settled]);
        break;
      }
      return promise;
    },
    writable: false,
    configurable: false,
    enumerable: true,
  });

  return { forgetFailedLoads };
}

function isLoadingDso(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && (value as { exports?: unknown }).exports === LOADING;
}

function isLinkerModule(module: Record<string, unknown>): module is Record<string, unknown> & LinkerModule {
  const ldso = module.LDSO as { loadedLibsByName?: unknown } | undefined;
  return (
    typeof module.GOT === 'object' &&
    module.GOT !== null &&
    typeof ldso?.loadedLibsByName === 'object' &&
    typeof module._emscripten_dlopen_promise === 'function' &&
    typeof module.getPromise === 'function'
  );
}
