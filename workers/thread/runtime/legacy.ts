/**
 * Adapter for the LEGACY distribution `@pyodide/pyodide@0.17.1` (Python 3.8, old `.js` + `.data` package format):
 * this module boots it; legacy-runtime.ts is the PythonRuntime over the booted interpreter, and
 * legacy-side-modules.ts how its shared libraries are loaded.
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
import type { BootOptions, PythonRuntime } from './types.js';
import { CallableTargetConstructor } from '../realm/callable-target.js';
import { diskPackageBytes, type PackageBytes } from './disk-package-data.js';
import { legacyRuntime, type Pyodide017 } from './legacy-runtime.js';
import { releaseLibraryBytes, sideModulesOnDemand } from './legacy-side-modules.js';
import { withLinkerPatches } from './linker-patches.js';

/** Emscripten's LZ4 file-packager support in pyodide.asm.js, as far as `.data` loading goes. */
interface Lz4Api {
  loadPackage(pack: { compressedData?: { data: Uint8Array | PackageBytes; cachedOffset: number } }, preloadPlugin: boolean): void;
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

  return legacyRuntime(pyodide, distDir, log);
}
