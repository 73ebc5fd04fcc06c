/** Root of this package (the directory holding package.json). */
export declare const PACKAGE_ROOT: string;
/** This package's version, from its package.json. */
export declare function packageVersion(): string;
/** Entry of a session worker thread. */
export declare const SESSION_WORKER_URL: import("url").URL;
/** Entry of a session process (the default isolation): hosts one session worker thread. */
export declare const SESSION_PROCESS_PATH: string;
/** The modern runtime adapter: its source shapes what a memory snapshot holds, so snapshots are keyed by it. */
export declare const MODERN_ADAPTER_URL: import("url").URL;
/** The Python harness every session loads (not compiled: shipped as source). */
export declare const HARNESS_PATH: string;
/** The wheels shipped with the package (the modern runtime's default wheel directory). */
export declare const PACKAGE_WHEELS_DIR: string;
/**
 * The workspace directory inside every session (Python's working directory); the harness names it too. Here, not
 * in the contract, because the worker imports it and must not load zod (its permission model reads only our code).
 */
export declare const WORKSPACE = "/workspace";
