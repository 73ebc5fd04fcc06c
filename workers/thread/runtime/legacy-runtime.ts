/**
 * The PythonRuntime over a booted Pyodide 0.17.1 (legacy.ts boots it): results converted to plain JavaScript with
 * every PyProxy destroyed, packages loaded by name from packages.json only, the interrupt buffer, and the bundle's
 * version gaps patched once at start (legacy-patches.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { PackageLoad } from '../../../src/wire/contract.js';
import { boundedReason } from '../../../src/wire/load-reasons.js';
import type { EmscriptenFS, PythonRuntime } from './types.js';
import type { InterruptSignalView } from './interrupt-signal.js';
import { legacyInstallFootprint } from './legacy-footprint.js';
import { LEGACY_PATCHES_PY } from './legacy-patches.js';

/** The subset of the 0.17.1 public API (`globalThis.pyodide`) that this adapter uses. Untyped upstream. */
export interface Pyodide017 {
  version: string;
  globals: { get(name: string): unknown };
  runPython(code: string): unknown;
  loadPackage(names: string[], onMessage: (m: string) => void, onError: (m: string) => void): Promise<void>;
  loadedPackages: Record<string, string>;
  isPyProxy(value: unknown): boolean;
  setInterruptBuffer?: (buffer: InterruptSignalView | undefined) => void;
  _module: {
    FS: EmscriptenFS;
    /** Emscripten 2.0's table of loaded libraries: name → handle → entry (`module` is "loading" until loaded). */
    LDSO: { loadedLibNames: Record<string, number>; loadedLibs: Record<number, { module: unknown }> };
    packages: {
      dependencies: Record<string, string[]>;
      import_name_to_package_name: Record<string, string>;
      versions?: Record<string, string>;
    };
  };
}

/** A PyProxy as far as we touch it (0.17: `toJs(depth)`, `destroy()`, `toString()` = Python `str()`). */
interface PyProxy017 {
  toJs(depth?: number): unknown;
  destroy(): void;
  toString(): string;
}

/**
 * The npm package's version (0.17.1). Gotcha: `@pyodide/pyodide` is a third-party repackaging of upstream
 * Pyodide 0.17.0, so `pyodide.version` / Python's `pyodide.__version__` say "0.17.0"; we report the package version
 * for consistency with the modern adapter (which reports the `pyodide` npm version) and fall back to the runtime's.
 */
function distributionVersion(distDir: string): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(path.join(distDir, '..', 'package.json'), 'utf8')) as { name?: string; version?: string };
    return pkg.name === '@pyodide/pyodide' && typeof pkg.version === 'string' ? pkg.version : undefined;
  } catch {
    return undefined;
  }
}

/** The runtime of a booted 0.17.1: what the worker sees of it. */
export function legacyRuntime(pyodide: Pyodide017, distDir: string, log: (message: string) => void): PythonRuntime {
  const isPyProxy = (value: unknown): value is PyProxy017 => pyodide.isPyProxy(value);

  /** Converts a result to plain JS and destroys every PyProxy involved, so no Python object stays referenced. */
  const toPlain = (value: unknown): unknown => {
    if (!isPyProxy(value)) return value;
    try {
      const converted = value.toJs();
      if (!isPyProxy(converted)) return converted; // NB: nested unconvertible items would stay proxies; rare, accepted
      try {
        return converted.toString(); // not convertible (module, function, custom object...): its str()
      } finally {
        if (converted !== value) converted.destroy();
      }
    } finally {
      value.destroy();
    }
  };

  // Runs an expression without binding any name in the user's globals.
  const evalPlain = (expression: string): unknown => toPlain(pyodide.runPython(expression));

  const pythonVersion = String(evalPlain(`__import__('sys').version.split()[0]`));
  // matplotlib 0.17 defaults to the browser canvas backend (matplotlib.backends.wasm_backend, needs `document`).
  // MPLBACKEND is read at `import matplotlib`, so setting it now makes headless Agg the default.
  evalPlain(`__import__('os').environ.__setitem__('MPLBACKEND', 'Agg')`);
  // Version gaps of the bundle that today's code hits, patched on import; see legacy-patches.ts. The source is ours,
  // embedded as a JSON string literal (valid Python), and runs in a namespace of its own.
  evalPlain(
    `(lambda src: exec(compile(src, 'pyodide_mcp_legacy_patches.py', 'exec'), {'__name__': 'pyodide_mcp_legacy_patches'}))` +
      `(${JSON.stringify(LEGACY_PATCHES_PY)})`,
  );

  const available = Object.keys(pyodide._module.packages.dependencies).sort();
  // Before any user code: the dependency table is copied now (legacy-footprint.ts).
  const installFootprint = legacyInstallFootprint(distDir, pyodide._module.packages.dependencies, () => pyodide.loadedPackages);

  /**
   * A library whose load failed keeps its entry, still "loading", so importing it again says "dynamic module does not
   * define module export function" instead of why (measured: a file that is no library, then imported twice). 0.17.1
   * loads libraries synchronously (a dlopen at import; shared-library packages from a promise callback, in one go),
   * so whenever this runs no load is in progress and such an entry is a failed load's: it goes, and the next import
   * tries again and reports the reason again. Unlike the modern runtime's rollback (dynlib-rollback.ts), global
   * offset table entries a failed library left unresolved stay: 0.17.1's linker lets a library loaded later define them.
   */
  const forgetFailedLoads = () => {
    const { loadedLibNames, loadedLibs } = pyodide._module.LDSO;
    for (const name of Object.keys(loadedLibNames)) {
      const handle = loadedLibNames[name]!;
      if (loadedLibs[handle]?.module !== 'loading') continue;
      delete loadedLibNames[name];
      delete loadedLibs[handle];
    }
  };
  // The harness's import finder calls it before each import (workers/python/failed_loads.py), as on the modern runtime.
  Object.defineProperty(pyodide, '_pyodide_mcp_forget_failed_loads', {
    value: forgetFailedLoads,
    writable: false,
    configurable: false,
    enumerable: false,
  });

  const runtime: PythonRuntime = {
    kind: 'legacy',
    FS: pyodide._module.FS,
    pythonVersion,
    pyodideVersion: distributionVersion(distDir) ?? pyodide.version,

    runPython(code: string): unknown {
      return toPlain(pyodide.runPython(code));
    },

    bindFunction(expression: string): (arg: string) => string {
      // 0.17: a callable PyProxy is `typeof 'function'`; we keep it for the runtime's lifetime (never destroyed).
      const fn = pyodide.runPython(expression);
      if (typeof fn !== 'function') throw new Error('legacy runtime: expression did not evaluate to a callable');
      return (arg: string) => {
        const result = (fn as (a: string) => unknown)(arg);
        if (!isPyProxy(result)) return String(result);
        try {
          return result.toString();
        } finally {
          result.destroy();
        }
      };
    },

    async loadPackages(names: string[]): Promise<PackageLoad> {
      // Only names from packages.json: 0.17 would also accept URLs ending in .js (refused by importScripts anyway).
      const unknown = names.filter((name) => !available.includes(name));
      if (unknown.length > 0) throw new Error(`legacy runtime: unknown package(s): ${unknown.join(', ')}`);
      const errors: string[] = [];
      // 0.17 reports failures through the error callback instead of rejecting (as the modern loader does).
      await pyodide.loadPackage(
        names,
        // Progress ("Loading numpy from …", one line per package) is not logged: failures come through onError.
        () => {},
        (message) => {
          errors.push(String(message));
          log(`legacy runtime: ${message}`);
        },
      );
      const failed = names
        .filter((name) => !(name in pyodide.loadedPackages))
        .map((name) => {
          // Its messages name a package by its script ("Couldn't load package from URL …/numpy.js"), when at all.
          const own = errors.filter((message) => message.includes(`/${name}.js`) || message.includes(`'${name}'`));
          const reason = (own.length > 0 ? own : errors).join('; ') || 'not loaded, and the package loader gave no reason';
          return { name, reason: boundedReason(reason) };
        });
      return { loaded: names.filter((name) => name in pyodide.loadedPackages), failed };
    },

    forgetFailedLoads,
    installFootprint,

    packagesForImports(importNames: string[]): string[] {
      const byImport = pyodide._module.packages.import_name_to_package_name;
      const wanted = importNames.map((name) => byImport[name]).filter((pkg): pkg is string => !!pkg && !(pkg in pyodide.loadedPackages));
      return [...new Set(wanted)];
    },

    loadedPackages(): Record<string, string> {
      const versions = pyodide._module.packages.versions ?? {};
      return Object.fromEntries(Object.keys(pyodide.loadedPackages).map((name) => [name, versions[name] ?? '']));
    },

    availablePackages(): string[] {
      return [...available];
    },

    packageVersions(importNames: string[]): Record<string, string> {
      const { versions = {}, import_name_to_package_name: byImport } = pyodide._module.packages;
      return Object.fromEntries(importNames.map((name) => [name, versions[byImport[name] ?? name] ?? '']));
    },

    // 0.17.1 has NATIVE interrupt support (pyodide.setInterruptBuffer, in its public API): the patched CPython eval
    // loop periodically calls into JS, which reads buffer[0], resets it to 0, and on 2 raises KeyboardInterrupt
    // like SIGINT would. The `pyodide-interrupts` package is the older sys.settrace-based mechanism; not needed.
    setInterruptBuffer(buffer: InterruptSignalView): boolean {
      if (typeof pyodide.setInterruptBuffer !== 'function') return false;
      pyodide.setInterruptBuffer(buffer);
      return true;
    },
  };

  return runtime;
}
