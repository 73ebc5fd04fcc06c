/**
 * Adapter for the LEGACY distribution `@pyodide/pyodide@0.17.1` (Python 3.8, old `.js` + `.data` package format).
 *
 * 0.17.1 predates Node support: `pyodide.js` only knows "browser page" (`self.document`) and "web worker"
 * (`self.importScripts`), fetches `packages.json` with `fetch`, and each package `<name>.js` downloads its
 * `<name>.data` with XMLHttpRequest after checking that a global `location` exists.
 *
 * Instead of planting browser globals on the worker's `globalThis` (which Python could reach through `import js`,
 * and which would have to be torn down again), every distribution script is evaluated with `vm.runInThisContext`
 * inside a wrapper function whose PARAMETERS shadow the few browser names it needs (`self`, `importScripts`,
 * `fetch`, `location`, `console`, `process`). The shims therefore exist only in those scripts' scope, and every
 * file they can read is confined to `distDir` (no network, no path traversal).
 *
 * The only globals left behind are 0.17.1's own: `globalThis.pyodide` (package scripts look it up by that name, so it
 * must stay), `loadPyodide` and `__pyodideLoading` (one boot per thread). (Its eager `updateGOT` also leaked
 * `baseName`, `fpcGOT`, `dyncallGOT`, `fpVal` and `dcVal`; linker-patches.ts replaces it.)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import type { BootOptions, EmscriptenFS, PythonRuntime } from './types.js';
import type { InterruptSignalView } from './interrupt-signal.js';
import { CallableTargetConstructor } from '../realm/callable-target.js';
import { diskPackageBytes, type PackageBytes } from './disk-package-data.js';
import { LEGACY_PATCHES_PY } from './legacy-patches.js';
import { withLinkerPatches } from './linker-patches.js';

/** The subset of the 0.17.1 public API (`globalThis.pyodide`) that this adapter uses. Untyped upstream. */
interface Pyodide017 {
  version: string;
  globals: { get(name: string): unknown };
  runPython(code: string): unknown;
  loadPackage(names: string[], onMessage: (m: string) => void, onError: (m: string) => void): Promise<void>;
  loadedPackages: Record<string, string>;
  isPyProxy(value: unknown): boolean;
  setInterruptBuffer?: (buffer: InterruptSignalView | undefined) => void;
  _module: {
    FS: EmscriptenFS;
    packages: {
      dependencies: Record<string, string[]>;
      import_name_to_package_name: Record<string, string>;
      versions?: Record<string, string>;
    };
  };
}

/** Emscripten's preload plugin for side modules (`.so`), as far as we wrap it. */
interface PreloadPlugin {
  canHandle?: (name: string) => boolean;
  handle?: (this: PreloadPlugin, bytes: Uint8Array, name: string, onload: () => void, onerror: () => void) => void;
}

/**
 * Emscripten's `.so` preload plugin instantiates every side module of a package as soon as the package loads:
 * all 75 of numpy, pandas, matplotlib, sympy and their dependencies, though importing the four uses 60.
 * Each instance costs compiled code, its data segment in the Python heap, a WebAssembly.Global per imported symbol
 * and, on Node 20 and 22, a copy of the whole indirect function table (0.6 MB each, per a heap snapshot).
 *
 * The plugin declines Python extension modules (under site-packages) instead, so they are neither decompressed nor
 * instantiated at package load: their file is already in the file system (LZ4.loadPackage creates every file
 * before it asks the plugins), and Python's import dlopens it, which Emscripten does synchronously from the file
 * system (allowed in a worker). Other libraries keep the plugin: pyodide.js loads shared-library packages (CLAPACK's
 * /lib/clapack_all.so) through it with global symbols, and would read a library missing from `preloadedWasm` from the
 * host's disk instead.
 *
 * The plugin's closures also keep each library's bytes referenced for the session's life although nothing reads them
 * after instantiation (V8 copied them when it compiled): once a library is instantiated its buffer is detached
 * (moved into a clone that is dropped at once), which frees it. Each buffer is the plugin's own copy, read from the
 * file system for this call alone.
 */
function sideModulesOnDemand(plugins: PreloadPlugin[]): PreloadPlugin[] {
  const push = Array.prototype.push;
  Object.defineProperty(plugins, 'push', {
    value: (...added: PreloadPlugin[]) => {
      for (const plugin of added) {
        const { handle, canHandle } = plugin;
        if (typeof handle === 'function' && typeof canHandle === 'function' && canHandle.call(plugin, 'library.so')) {
          plugin.canHandle = (name) => !name.startsWith(EXTENSION_MODULES_DIR) && canHandle.call(plugin, name);
          plugin.handle = function (bytes, name, onload, onerror) {
            handle.call(this, bytes, name, () => (releaseLibraryBytes(bytes), onload()), onerror);
          };
        }
      }
      return push.apply(plugins, added);
    },
  });
  return plugins;
}

/**
 * Frees a library's bytes once V8 has compiled them (it keeps its own copy): detaches the buffer by moving it into a
 * clone that is dropped at once. Only for a buffer the caller owns whole (the preload plugin's copy, a `dlopen`'s
 * `FS.readFile`): a view into a larger buffer is left alone.
 */
function releaseLibraryBytes(bytes: Uint8Array): void {
  const buffer = bytes.buffer;
  if (buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength) {
    structuredClone(buffer, { transfer: [buffer] });
  }
}

/** Where Pyodide 0.17's packages put Python extension modules (loaded by import, never by pyodide.js). */
const EXTENSION_MODULES_DIR = '/lib/python3.8/site-packages/';

/** Emscripten's LZ4 file-packager support in pyodide.asm.js, as far as `.data` loading goes. */
interface Lz4Api {
  loadPackage(pack: { compressedData?: { data: Uint8Array | PackageBytes; cachedOffset: number } }, preloadPlugin: boolean): void;
}

/** A PyProxy as far as we touch it (0.17: `toJs(depth)`, `destroy()`, `toString()` = Python `str()`). */
interface PyProxy017 {
  toJs(depth?: number): unknown;
  destroy(): void;
  toString(): string;
}

/** The project compiles with lib ES2022 only (no DOM), which is where the `WebAssembly` namespace is declared. */
const wasmApi = (globalThis as any).WebAssembly as {
  instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: object; module: object }>;
};

/**
 * Maps a URL/path requested by a distribution script to a file inside `distDir`, or throws.
 * Anything with a scheme (http:, https:, data:, blob:, file: ...) is refused outright: pyodide.js passes plain
 * absolute paths because we boot it with `indexURL = distDir + '/'`, so a scheme means someone (e.g. Python code
 * calling `pyodide_js.loadPackage('https://…/x.js')`) asked for something that is not a local package.
 */
function resolveInDist(distDir: string, requested: string): string {
  if (typeof requested !== 'string' || requested.includes('\0') || /^[a-z][a-z0-9+.-]*:/i.test(requested)) {
    throw new Error(`legacy runtime: refusing to load ${JSON.stringify(requested)} (only files in the distribution)`);
  }
  const resolved = path.resolve(distDir, requested);
  if (!resolved.startsWith(distDir + path.sep)) {
    throw new Error(`legacy runtime: refusing to load ${JSON.stringify(requested)} (outside ${distDir})`);
  }
  return resolved;
}

/**
 * Evaluates a distribution script as the body of a function whose parameters are `bindings`, so the script's
 * free references to e.g. `self` or `location` hit our shims instead of (missing) globals. `epilogue` is appended
 * to the body, used to hand back a top-level `var` that would otherwise be function-local.
 */
function runScript(file: string, bindings: Record<string, unknown>, epilogue = '', patch = (text: string) => text): unknown {
  const names = Object.keys(bindings);
  // The function header shares line 1 with the script so stack-trace line numbers stay correct.
  const source = `(function (${names.join(', ')}) {${patch(readFileSync(file, 'utf8'))}\n${epilogue}\n})`;
  const fn = vm.runInThisContext(source, { filename: file }) as (...args: unknown[]) => unknown;
  return fn(...names.map((name) => bindings[name]));
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

export async function bootLegacy(options: BootOptions): Promise<PythonRuntime> {
  const distDir = path.resolve(options.distDir);
  const log = options.log;
  const dist = (requested: string): string => resolveInDist(distDir, requested);

  // In a worker thread console.log goes to the PARENT's stdout, which carries only MCP protocol. The scripts get
  // a console that writes to the log sink instead (pyodide.js uses console.log/warn/error for progress,
  // deprecation and fatal-error messages; package loaders use console.error).
  const quietConsole = { log, info: log, debug: log, warn: log, error: log, trace: log };

  // Rejected if the wasm cannot be instantiated (Emscripten would otherwise just never call postRun).
  let failBoot: (error: unknown) => void = () => {};
  const bootFailed = new Promise<never>((_, reject) => {
    failBoot = reject;
  });

  // Emscripten Module settings, merged into the Module object pyodide.js creates (it is private to loadPyodide,
  // so we intercept the `_createPyodideModule(Module)` call to add them).
  const moduleOverrides = {
    // Where Emscripten's stdout/stderr (fd 1/2, i.e. Python's print before the caller redirects sys.stdout) go.
    print: (text: string) => log(`[pyodide stdout] ${text}`),
    printErr: (text: string) => log(`[pyodide stderr] ${text}`),
    // Compile the wasm from the local file ourselves. Emscripten's defaults would fetch() it (web-worker mode) or
    // keep a second 10 MB copy alive in a closure (Module.wasmBinary).
    instantiateWasm(imports: object, receiveInstance: (instance: object, module: object) => void) {
      wasmApi.instantiate(readFileSync(dist('pyodide.asm.wasm')), imports).then(
        ({ instance, module }) => receiveInstance(instance, module),
        (error: unknown) => failBoot(error),
      );
      return {}; // "instantiation is asynchronous" in Emscripten's protocol
    },
    // Emscripten's preload plugins (it adds its own to this array in Browser.init); see sideModulesOnDemand.
    preloadPlugins: sideModulesOnDemand([]),
    // Every `.data` loader (pyodide.asm.data and each package) asks this hook first and only falls back to
    // XMLHttpRequest (absent in Node, so the load fails) when it returns nothing. It gets an empty stand-in that
    // names the file; `LZ4.loadPackage` (wrapped below) swaps it for the file read on demand (disk-package-data.ts).
    getPreloadedPackage(requested: string): ArrayBuffer {
      const standIn = new ArrayBuffer(0);
      dataFiles.set(standIn, dist(requested));
      return standIn;
    },
  };

  /** `.data` files requested through getPreloadedPackage, by the stand-in buffer their loader was given. */
  const dataFiles = new WeakMap<ArrayBufferLike, string>();
  // Emscripten assigns `Module.LZ4` during module setup, before any `.data` loader runs (they assert it exists).
  const readPackagesFromDisk = (module: object): void => {
    let lz4: Lz4Api | undefined;
    Object.defineProperty(module, 'LZ4', {
      configurable: true,
      enumerable: false,
      get: () => lz4,
      set: (value: Lz4Api | undefined) => {
        lz4 = value;
        if (!value || wrappedLz4.has(value)) return;
        wrappedLz4.add(value);
        const loadPackage = value.loadPackage.bind(value);
        value.loadPackage = (pack, preloadPlugin) => {
          const compressed = pack.compressedData;
          const file = compressed && ArrayBuffer.isView(compressed.data) ? dataFiles.get(compressed.data.buffer) : undefined;
          if (compressed && file !== undefined) compressed.data = diskPackageBytes(file, compressed.cachedOffset);
          return loadPackage(pack, preloadPlugin);
        };
      },
    });
  };
  const wrappedLz4 = new WeakSet<object>();

  // The `.data` loaders throw "using preloaded data can only be done on a web page or in a web worker" unless a
  // `location` exists; its value only feeds an unused PACKAGE_PATH. Emscripten's web-worker branch reads
  // `self.location.href` for its script directory (unused: pyodide.js supplies Module.locateFile).
  const location = { href: `file://${distDir}/pyodide.asm.js`, pathname: `${distDir}/pyodide.asm.js` };

  let asmFactory: ((module: object) => Promise<unknown>) | undefined;

  // `importScripts` is how 0.17.1 loads pyodide.asm.js and every package `<name>.js` (pyodide.js keeps calling
  // `self.importScripts` for each loadPackage, so it lives as long as the runtime). Files outside distDir are refused.
  const importScripts = (...urls: string[]): void => {
    for (const url of urls) {
      const file = dist(url);
      if (path.basename(file) === 'pyodide.asm.js') {
        // `process: undefined` hides Node from Emscripten (ENVIRONMENT_IS_NODE=false) so it takes the web-worker
        // path: otherwise it would need a global `require`, install process-wide 'uncaughtException' /
        // 'unhandledRejection' handlers (the latter aborts Pyodide on ANY stray rejection in this thread), make
        // os.system() spawn a real shell with inherited stdio (= the MCP stdout) and read stdin with fs.readSync.
        // In web-worker mode os.system fails with ENOSYS, input() gets EOF, exit() throws instead of process.exit,
        // and randomness comes from globalThis.crypto.getRandomValues (Node 20 has WebCrypto).
        asmFactory = runScript(
          file,
          // `Function`: code generation from strings is off in session workers; see CallableTargetConstructor.
          // `RELEASE_LIBRARY_BYTES`: used by the linker patch that frees a dlopen'ed library's bytes.
          {
            self: { location, importScripts },
            importScripts,
            location,
            process: undefined,
            console: quietConsole,
            Function: CallableTargetConstructor,
            RELEASE_LIBRARY_BYTES: releaseLibraryBytes,
          },
          'return _createPyodideModule;',
          withLinkerPatches,
        ) as typeof asmFactory;
      } else {
        // Package scripts: they reference `pyodide._module` (global), `location` and, on failure, console.error.
        runScript(file, { location, console: quietConsole });
      }
    }
  };

  // pyodide.js fetches exactly one thing with fetch(): `${indexURL}packages.json`. A file-only fetch, scoped to it.
  const localFetch = async (url: string) => {
    const text = readFileSync(dist(url), 'utf8');
    return { ok: true, status: 200, json: async () => JSON.parse(text), text: async () => text };
  };

  const started = performance.now();
  runScript(dist('pyodide.js'), {
    // `self.document` undefined + `self.importScripts` defined => pyodide.js picks its web-worker loader.
    self: { importScripts, location },
    fetch: localFetch,
    console: quietConsole,
    // Called as a free identifier after importScripts('pyodide.asm.js'): add our Module settings first.
    _createPyodideModule: (module: object) => {
      if (!asmFactory) throw new Error('legacy runtime: pyodide.asm.js did not define _createPyodideModule');
      readPackagesFromDisk(module);
      return asmFactory(Object.assign(module, moduleOverrides));
    },
  });
  const loadPyodide = (globalThis as any).loadPyodide as (config: { indexURL: string }) => Promise<Pyodide017>;
  const pyodide = await Promise.race([loadPyodide({ indexURL: `${distDir}/` }), bootFailed]);
  log(`legacy runtime: Pyodide ${pyodide.version} booted in ${Math.round(performance.now() - started)} ms`);

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

    async loadPackages(names: string[]): Promise<void> {
      // Only names from packages.json: 0.17 would also accept URLs ending in .js (refused by importScripts anyway).
      const unknown = names.filter((name) => !available.includes(name));
      if (unknown.length > 0) throw new Error(`legacy runtime: unknown package(s): ${unknown.join(', ')}`);
      const errors: string[] = [];
      // 0.17 reports failures through the error callback instead of rejecting; collect them and throw.
      await pyodide.loadPackage(
        names,
        // Progress ("Loading numpy from …", one line per package) is not logged: failures come through onError.
        () => {},
        (message) => {
          errors.push(String(message));
          log(`legacy runtime: ${message}`);
        },
      );
      const missing = names.filter((name) => !(name in pyodide.loadedPackages));
      if (errors.length > 0 || missing.length > 0) {
        throw new Error(`legacy runtime: loading ${names.join(', ')} failed: ${errors.join('; ') || missing.join(', ')}`);
      }
    },

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
