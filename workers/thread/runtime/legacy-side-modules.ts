/**
 * The legacy runtime's side modules (`.so`) loaded on demand rather than all at package load, and their bytes freed
 * once compiled: what keeps an idle legacy session with the scientific stack small (docs/benchmarks.md).
 */

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
export function sideModulesOnDemand(plugins: PreloadPlugin[]): PreloadPlugin[] {
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
export function releaseLibraryBytes(bytes: Uint8Array): void {
  const buffer = bytes.buffer;
  if (buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength) {
    structuredClone(buffer, { transfer: [buffer] });
  }
}

/** Where Pyodide 0.17's packages put Python extension modules (loaded by import, never by pyodide.js). */
const EXTENSION_MODULES_DIR = '/lib/python3.8/site-packages/';
