/** Where the Pyodide project publishes its releases; `v<version>/full/` is appended (what `loadPyodide` defaults its cdnUrl to). */
export declare const PYODIDE_CDN = "https://cdn.jsdelivr.net/pyodide/";
/** Env var that replaces PYODIDE_CDN (a mirror with the CDN's layout, or a loopback server in tests). */
export declare const CDN_ENV = "PYODIDE_MCP_CDN_URL";
/** Env twin of --lock-file, shared with the server's flag of the same name (src/server/config.ts). */
export declare const LOCK_ENV = "PYODIDE_MCP_LOCK_FILE";
/** Env var that turns the postinstall download off, as other packages offer for their binaries. */
export declare const SKIP_ENV = "PYODIDE_MCP_SKIP_DOWNLOAD";
/** The default source: the CDN's directory for the installed `pyodide` package's version. */
export declare function defaultSource(env: Record<string, string | undefined>, version?: string): string;
/** Where the command writes its lines, and whether per-file lines are wanted. */
interface Output {
    line(text: string): void;
    verbose: boolean;
}
/**
 * Runs the command. `argv` excludes the subcommand; `env` supplies the cache location and the CDN override.
 * Returns the exit code.
 */
export declare function fetchWheelsCommand(argv: string[], env: Record<string, string | undefined>, out?: Output): Promise<number>;
/**
 * The postinstall step: the same fetch with a short timeout and one line of output, never a failed install. Skipped
 * with PYODIDE_MCP_SKIP_DOWNLOAD=1 and when the package itself carries the wheels. Returns the line it printed.
 */
export declare function postinstall(env: Record<string, string | undefined>, packageWheelsDir: string): Promise<string>;
export {};
