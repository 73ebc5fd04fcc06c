/**
 * The one interface the worker uses to talk to a Pyodide distribution.
 * Each distribution (modern `pyodide` npm package, legacy `@pyodide/pyodide@0.17.1`)
 * has one adapter implementing it; nothing else in the worker knows which is loaded.
 */
import type { PackageLoad, RuntimeKind } from '../../../src/wire/contract.js';
import type { Footprint } from '../archive-footprint.js';
import type { InterruptSignalView } from './interrupt-signal.js';

/** Options for booting a runtime inside the worker thread. */
export interface BootOptions {
  /** Absolute directory that holds the distribution's files (pyodide.asm.wasm etc.). */
  distDir: string;
  /** Absolute directory of locally stored wheels (modern runtime only); null when none. */
  wheelsDir: string | null;
  /** Modern runtime: wheels in `wheelsDir` verified by the host; default every file there (benchmarks, probes). */
  wheelFiles?: string[];
  /** Modern runtime: source texts of the verified libraries' EM_JS / EM_ASM snippets (em-snippet-loader.ts). */
  emSnippets?: string[];
  /** Log sink; goes to the host's stderr. Never stdout. */
  log: (message: string) => void;
  /** Modern runtime: boot from this memory snapshot instead of from scratch. */
  snapshot?: Uint8Array | null;
  /** Modern runtime: boot so that `makeSnapshot()` can be called (before any other Python state). */
  makeSnapshot?: boolean;
  /** Modern runtime: the pyodide-lock.json to load packages by (default the distribution's own). */
  lockFile?: string | null;
  /**
   * Modern runtime, pure-Python packages only (import names). With `makeSnapshot`: loaded and imported during boot,
   * so the snapshot holds them imported. With `snapshot`: the snapshot holds them imported but not their files
   * (Emscripten's file system lives outside the WebAssembly memory), so their wheels are unpacked again during boot.
   */
  snapshotImports?: string[];
}

/**
 * The part of Emscripten's FS object that the worker uses (the same in both distributions).
 * Loosely typed on purpose: it is Emscripten's own JavaScript, not a typed API.
 */
export interface EmscriptenFS {
  readdir(path: string): string[];
  lstat(path: string): { mode: number; size: number; mtime: Date | number };
  stat(path: string): { mode: number; size: number; mtime: Date | number };
  readFile(path: string): Uint8Array;
  writeFile(path: string, data: Uint8Array | string, opts?: { flags?: string }): void;
  unlink(path: string): void;
  rmdir(path: string): void;
  mkdirTree?(path: string): void;
  mkdir(path: string): void;
  isDir(mode: number): boolean;
  isFile(mode: number): boolean;
  isLink(mode: number): boolean;
  lookupPath(path: string, opts?: { follow?: boolean }): { path: string; node: any };
  getPath(node: any): string;
  ErrnoError: new (errno: number) => Error;
  [hook: string]: any;
}

/** A booted Pyodide runtime, reduced to what the worker needs. */
export interface PythonRuntime {
  readonly kind: RuntimeKind;
  /** e.g. "3.14.2" */
  readonly pythonVersion: string;
  /** e.g. "314.0.7" */
  readonly pyodideVersion: string;
  /** Emscripten's virtual filesystem of this interpreter. */
  readonly FS: EmscriptenFS;
  /** Runs Python source in the runtime's globals and returns the value converted to JS (strings stay strings). */
  runPython(code: string): unknown;
  /**
   * Evaluates a Python expression that yields a callable taking one str and returning a str, and returns
   * a JS function that calls it. The Python object is held for the runtime's lifetime; looking it up
   * once (not by name per call) keeps the hot path short and out of reach of user code.
   */
  bindFunction(expression: string): (arg: string) => string;
  /**
   * Loads packages (and what they require) from local files only, never the network. A package that fails to load is
   * reported in `failed` with the loader's own message (cut to MAX_LOAD_REASON_BYTES), never in `loaded`; the call
   * rejects only when it cannot start (an unknown name).
   */
  loadPackages(names: string[]): Promise<PackageLoad>;
  /**
   * Modern runtime: removes what shared libraries that failed to load left in the dynamic linker, so the next attempt
   * reports why again and other libraries still load (runtime/dynlib-rollback.ts); nothing while a load runs. Legacy:
   * nothing to do.
   */
  forgetFailedLoads(): void;
  /**
   * What loadPackages(names) may write at most: the files of these packages' archives and of their dependencies not
   * loaded yet, as the archives declare them. The file quota lifts itself by this much during the install.
   */
  installFootprint(names: string[]): Footprint;
  /**
   * Packages that provide any of these top-level import names, can be loaded offline, and are not loaded
   * yet (e.g. ['numpy', 'os'] → ['numpy'] if numpy is available but not loaded).
   */
  packagesForImports(importNames: string[]): string[];
  /** Packages loaded into the interpreter so far, with versions where known. */
  loadedPackages(): Record<string, string>;
  /** Names of packages this distribution can load offline. */
  availablePackages(): string[];
  /**
   * Versions of these import names from the distribution's metadata ('' when it has none), without loading
   * anything: what a session reports before its preload is imported.
   */
  packageVersions(importNames: string[]): Record<string, string>;
  /**
   * Installs the interrupt buffer (slot 0 of a SharedArrayBuffer-backed Int32Array, seen through
   * interrupt-signal.ts): the host writes 2 (SIGINT) into it to raise KeyboardInterrupt in running Python. Returns
   * false if the distribution cannot.
   */
  setInterruptBuffer(buffer: InterruptSignalView): boolean;
  /**
   * Serialises the interpreter's memory (modern runtime booted with `makeSnapshot`), to be passed as
   * `snapshot` to later boots. Absent where the distribution cannot.
   */
  makeSnapshot?(): Uint8Array;
}
