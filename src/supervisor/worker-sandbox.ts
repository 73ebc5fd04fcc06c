/**
 * Host-side half of the sandbox (the worker-side half is workers/thread/realm/lockdown.ts):
 *
 *  - `workerSandboxExecArgv`: Node's permission model FOR EACH SESSION WORKER ONLY, through the Worker's
 *    `execArgv`. Measured on Node 20.20: a worker started with `--experimental-permission --allow-fs-read=<dirs>`
 *    may read only those paths, cannot write, spawn processes, start workers, load addons or call
 *    `process.binding`, while the main thread keeps full rights (the server's own upload/download tools need
 *    them). Conversely a worker started with `execArgv: []` from a process that runs under the permission model
 *    gets NO restrictions at all, so the flags must always be passed explicitly.
 *  - `hardenWorkerIsolates`: process-wide V8 flags that only affect isolates and contexts created afterwards:
 *    no code generation from strings in new worker contexts (eval / Function / run_js throw EvalError; the
 *    already-running main context and node:vm contexts are unaffected) and a cap on every WebAssembly memory
 *    (engine-enforced, so a Python allocation beyond it is a MemoryError, not a host OOM).
 */
import { existsSync, readFileSync } from 'node:fs';
import nodeModule, { createRequire } from 'node:module';
import { dirname, join, resolve, sep } from 'node:path';
import v8 from 'node:v8';
import { PACKAGE_ROOT } from '../paths.js';

/** Root of this package, from dist/src/. */

/** Default cap on one session's WebAssembly memory (the Python heap), in MB; also the default of `--max-memory-mb`. */
export const DEFAULT_MAX_WASM_MEMORY_MB = 1024;

let codegenDisabled = false;

/**
 * Call before spawning session workers (idempotent; the memory cap is process-wide, the last call wins).
 * `maxWasmMemoryMb` caps each WebAssembly.Memory (rounded down to 64 KiB pages, at least 64 MB).
 */
export function hardenWorkerIsolates(options: { maxWasmMemoryMb?: number } = {}): void {
  const mb = Math.max(64, Math.floor(options.maxWasmMemoryMb ?? DEFAULT_MAX_WASM_MEMORY_MB));
  v8.setFlagsFromString(`--wasm-max-mem-pages=${Math.min(65536, mb * 16)}`);
  if (!codegenDisabled) {
    // Read by V8/Node when a context is created: affects worker contexts created from now on, not this one.
    v8.setFlagsFromString('--disallow-code-generation-from-strings');
    codegenDisabled = true;
  }
}

/** The permission-model switch this Node understands, or null (then workers run without that layer). */
export function permissionFlag(): string | null {
  const flags = process.allowedNodeEnvironmentFlags;
  if (flags.has('--permission')) return '--permission';
  if (flags.has('--experimental-permission')) return '--experimental-permission';
  return null;
}

/** The directory of an installed package (the one holding its package.json), resolved from `fromDir`. */
function packageDir(name: string, fromDir: string): string | null {
  try {
    let dir = dirname(createRequire(join(fromDir, 'noop.js')).resolve(name));
    while (dir !== dirname(dir)) {
      const manifest = join(dir, 'package.json');
      if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name) return dir;
      dir = dirname(dir);
    }
  } catch {
    // not installed: nothing to allow
  }
  return null;
}

/** The parts of a worker's init that name what it reads. */
interface WorkerPaths {
  distDir: string;
  wheelsDir: string | null;
  /** The wheels in wheelsDir the server verified against the lock: the only files of it the worker may read. */
  wheelFiles: string[];
  harnessPath: string;
  lockFile?: string | null;
}

/**
 * Paths a session worker must read: our compiled code, the Python source (workers/python/), the distribution (and its
 * package.json), the `ws` package pyodide.mjs imports at boot, the wheels directory and a --lock-file. Nothing else:
 * not the user's files, not the working directory, not the server's allow-dirs.
 */
export function workerReadPaths(init: WorkerPaths): string[] {
  const distDir = resolve(init.distDir);
  const distPackage = existsSync(join(distDir, 'package.json')) ? distDir : dirname(distDir);
  const paths = [
    join(PACKAGE_ROOT, 'dist') + sep,
    // The harness and the Python modules beside it (workers/thread/python-modules.ts).
    dirname(resolve(init.harnessPath)) + sep,
    join(PACKAGE_ROOT, 'package.json'),
    distPackage + sep,
    packageDir('ws', distPackage),
    // The directory, not its verified wheels one by one: granting only the files made Pyodide's wheel loading fail
    // with ERR_ACCESS_DENIED (Node 20), though a plain readFile of the same path passes. So a session that names an
    // unverified file there by path can load it (SECURITY.md, residual risks); nothing the server loads is unverified.
    init.wheelsDir ? resolve(init.wheelsDir) + sep : null,
    // --lock-file: the modern adapter and Pyodide's loadPackage read it (the pinned one is inside distPackage).
    init.lockFile ? resolve(init.lockFile) : null,
  ];
  const unique = [...new Set(paths.filter((p): p is string => typeof p === 'string'))];
  // A file inside a directory that is already allowed is left out: measured on Node 20, granting both the directory
  // and a file in it (a --lock-file kept beside its wheels) made the permission model refuse the directory's other files.
  return unique.filter((path) => !unique.some((dir) => dir !== path && dir.endsWith(sep) && path.startsWith(dir)));
}

/**
 * The `execArgv` for a session worker: the permission model with read access to `workerReadPaths(init)` only.
 * Empty when this Node has no permission model (the worker then relies on the in-realm layers alone).
 *
 * `--allow-worker` is needed on Node 20 because the worker's import firewall (module.register hooks) runs on an
 * internal thread, which counts as a worker. Measured consequence (20.20, 22.23, 24.21 alike): a Worker created
 * FROM the session worker with `execArgv: []` runs unrestricted, so the Worker constructor must stay unreachable;
 * it is: no eval (code generation off), every import()/require() refused after lockdown, and `process` replaced.
 * Where Node has `module.registerHooks` (22.15+) the firewall runs in-thread and the flag is left out, so the
 * permission model itself refuses new workers (checked from inside by `checkPermissionModel`).
 * Measured per line: Node 20 understands only `--experimental-permission` (and prints an ExperimentalWarning),
 * 22 and 24 `--permission` (stable); `--allow-fs-read` may be repeated, one path each, on all three; the warnings
 * below are silenced by type on all three (24 tags them with a code, e.g. PERM0006).
 */
export function workerSandboxExecArgv(init: WorkerPaths): string[] {
  const flag = permissionFlag();
  if (!flag) return [];
  // The two start-up warnings (experimental feature, --allow-worker) would be logged for every session; the
  // worker logs its sandbox state itself ("sandbox: permission model active").
  const quiet = process.allowedNodeEnvironmentFlags.has('--disable-warning')
    ? ['--disable-warning=ExperimentalWarning', '--disable-warning=SecurityWarning']
    : [];
  const worker = typeof (nodeModule as { registerHooks?: unknown }).registerHooks === 'function' ? [] : ['--allow-worker'];
  return [flag, ...worker, ...quiet, ...workerReadPaths(init).map((path) => `--allow-fs-read=${path}`)];
}
