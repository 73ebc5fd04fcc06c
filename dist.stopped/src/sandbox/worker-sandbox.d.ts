/** Root of this package, from dist/src/. */
/** Default cap on one session's WebAssembly memory (the Python heap), in MB; also the default of `--max-memory-mb`. */
export declare const DEFAULT_MAX_WASM_MEMORY_MB = 1024;
/**
 * Call before spawning session workers (idempotent; the memory cap is process-wide, the last call wins).
 * `maxWasmMemoryMb` caps each WebAssembly.Memory (rounded down to 64 KiB pages, at least 64 MB).
 */
export declare function hardenWorkerIsolates(options?: {
    maxWasmMemoryMb?: number;
}): void;
/** The permission-model switch this Node understands, or null (then workers run without that layer). */
export declare function permissionFlag(): string | null;
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
 * Paths a session worker must read: our compiled code, the harness, the distribution (and its package.json),
 * the `ws` package pyodide.mjs imports at boot, the wheels directory and a --lock-file. Nothing else: not the user's files,
 * not the working directory, not the server's allow-dirs.
 */
export declare function workerReadPaths(init: WorkerPaths): string[];
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
export declare function workerSandboxExecArgv(init: WorkerPaths): string[];
export {};
