import { z } from 'zod';
import type { WheelDir } from '../python/wheel-check.js';
/** The flag table: `--help` is generated from it and the README documents it. One row per flag (hence prettier-ignore). */
export declare const FLAGS: {
    readonly 'session-ttl': {
        readonly schema: z.ZodCoercedNumber<unknown>;
        readonly default: "1800";
        readonly option: "sessionTtlSeconds";
        readonly help: "Seconds of inactivity after which a session is closed.";
    };
    readonly timeout: {
        readonly schema: z.ZodCoercedNumber<unknown>;
        readonly default: "30";
        readonly option: "timeoutSeconds";
        readonly help: "Default time limit of one execution, in seconds.";
    };
    readonly 'max-timeout': {
        readonly schema: z.ZodCoercedNumber<unknown>;
        readonly default: "300";
        readonly option: "maxTimeoutSeconds";
        readonly help: "Largest timeout_seconds a call may ask for.";
    };
    readonly 'max-sessions': {
        readonly schema: z.ZodCoercedNumber<unknown>;
        readonly default: "16";
        readonly help: "Most sessions alive at once; creating one more fails.";
    };
    readonly 'max-code-chars': {
        readonly schema: z.ZodCoercedNumber<unknown>;
        readonly default: "200000";
        readonly help: "Longest code accepted by execute_code, in characters.";
    };
    readonly 'max-output-chars': {
        readonly schema: z.ZodCoercedNumber<unknown>;
        readonly default: "20000";
        readonly help: "Cap on stdout and on stderr of one execution (each), in characters.";
    };
    readonly 'max-result-chars': {
        readonly schema: z.ZodCoercedNumber<unknown>;
        readonly default: "10000";
        readonly help: "Cap on the repr of a cell's last expression, in characters.";
    };
    readonly 'max-traceback-chars': {
        readonly schema: z.ZodCoercedNumber<unknown>;
        readonly default: "10000";
        readonly help: "Cap on the traceback of an error and on its message, each in characters.";
    };
    readonly 'interrupt-grace': {
        readonly schema: z.ZodCoercedNumber<unknown>;
        readonly default: "1500";
        readonly option: "interruptGraceMs";
        readonly help: "Milliseconds Python gets to stop after an interrupt before its worker is terminated.";
    };
    readonly 'max-heap-mb': {
        readonly schema: z.ZodCoercedNumber<unknown>;
        readonly default: "512";
        readonly help: "Cap on each session worker's JavaScript heap, in MB.";
    };
    readonly 'warm-sessions': {
        readonly schema: z.ZodCoercedNumber<unknown>;
        readonly default: "2";
        readonly help: "Sessions kept booted and ready, so create_session returns at once; 0 disables the pool.";
    };
    readonly runtime: {
        readonly schema: z.ZodEnum<{
            modern: "modern";
            legacy: "legacy";
            auto: "auto";
        }>;
        readonly default: "auto";
        readonly help: "Pyodide distribution: auto picks the newest that can satisfy --preload.";
    };
    readonly preload: {
        readonly schema: z.ZodPipe<z.ZodString, z.ZodTransform<string[], string>>;
        readonly default: string;
        readonly help: "Comma-separated packages imported in every new session, or \"none\".";
    };
    readonly 'max-file-bytes': {
        readonly schema: z.ZodCoercedNumber<unknown>;
        readonly default: string;
        readonly help: "Largest single file in a session, in bytes.";
    };
    readonly 'max-session-bytes': {
        readonly schema: z.ZodCoercedNumber<unknown>;
        readonly default: string;
        readonly help: "Total bytes the code of one session may write to its filesystem.";
    };
    readonly 'max-files': {
        readonly schema: z.ZodCoercedNumber<unknown>;
        readonly default: "1000";
        readonly help: "Most files the code of one session may create.";
    };
    readonly 'max-image-bytes': {
        readonly schema: z.ZodCoercedNumber<unknown>;
        readonly default: string;
        readonly help: "Largest figure returned inline as an image block; larger ones are linked only.";
    };
    readonly 'max-read-bytes': {
        readonly schema: z.ZodCoercedNumber<unknown>;
        readonly default: string;
        readonly help: "Largest page read_file returns in one call (larger files are paged).";
    };
    readonly 'figure-formats': {
        readonly schema: z.ZodPipe<z.ZodPipe<z.ZodString, z.ZodTransform<string[], string>>, z.ZodArray<z.ZodEnum<{
            png: "png";
            svg: "svg";
        }>>>;
        readonly default: "png";
        readonly help: "Formats open matplotlib figures are saved in: png, or png,svg.";
    };
    readonly 'allow-dir': {
        readonly schema: z.ZodArray<z.ZodString>;
        readonly default: undefined;
        readonly multiple: true;
        readonly option: "allowDirs";
        readonly help: "Host directory that upload_file/download_file may use (repeatable; env: several joined by \";\"). Default: none, so host file access is off until a directory is named." | "Host directory that upload_file/download_file may use (repeatable; env: several joined by \":\"). Default: none, so host file access is off until a directory is named.";
    };
    readonly 'allow-all-dirs': {
        readonly schema: z.ZodPipe<z.ZodEnum<{
            "": "";
            0: "0";
            1: "1";
            true: "true";
            false: "false";
        }>, z.ZodTransform<boolean, "" | "0" | "1" | "true" | "false">>;
        readonly default: "false";
        readonly boolean: true;
        readonly help: "Let upload_file/download_file use any host directory (credential files stay refused).";
    };
    readonly isolation: {
        readonly schema: z.ZodEnum<{
            process: "process";
            thread: "thread";
        }>;
        readonly default: "process";
        readonly help: "Where each session lives: \"process\" (a child process of its own: the security boundary between sessions) or \"thread\" (a worker thread of the server: lighter, for trusted code only; not a boundary between sessions).";
    };
    readonly 'max-reply-bytes': {
        readonly schema: z.ZodCoercedNumber<unknown>;
        readonly default: string;
        readonly help: "Largest tool reply, in bytes (text, structured content and images together); beyond it images are dropped and text is cut, and the reply says so.";
    };
    readonly 'max-session-memory-mb': {
        readonly schema: z.ZodCoercedNumber<unknown>;
        readonly default: "2048";
        readonly help: "Cap on all memory of one session's process (RSS: WebAssembly, JavaScript heap, buffers, its files), in MB; above it the session is ended (process isolation, Linux).";
    };
    readonly 'allow-network': {
        readonly schema: z.ZodPipe<z.ZodEnum<{
            "": "";
            0: "0";
            1: "1";
            true: "true";
            false: "false";
        }>, z.ZodTransform<boolean, "" | "0" | "1" | "true" | "false">>;
        readonly default: "false";
        readonly boolean: true;
        readonly help: "Let install_packages fetch pure-Python wheels that are not in the offline set from --index-url (the server fetches and verifies them; sessions never get network).";
    };
    readonly 'index-url': {
        readonly schema: z.ZodString;
        readonly default: "https://pypi.org/pypi";
        readonly help: "PyPI-style JSON index used by install_packages with --allow-network.";
    };
    readonly 'max-memory-mb': {
        readonly schema: z.ZodCoercedNumber<unknown>;
        readonly default: string;
        readonly help: "Cap on each session's Python (WebAssembly) heap, in MB; beyond it Python raises MemoryError.";
    };
    readonly 'no-structured-content': {
        readonly schema: z.ZodPipe<z.ZodEnum<{
            "": "";
            0: "0";
            1: "1";
            true: "true";
            false: "false";
        }>, z.ZodTransform<boolean, "" | "0" | "1" | "true" | "false">>;
        readonly default: "false";
        readonly boolean: true;
        readonly help: "Leave outputSchema and structuredContent out of every tool, so the text block carries the reply (compact JSON; readable text for execute_code and run_file). For clients that show the model only the text of a structured reply and drop its images (Mastra).";
    };
    readonly 'resource-links': {
        readonly schema: z.ZodPipe<z.ZodEnum<{
            "": "";
            0: "0";
            1: "1";
            true: "true";
            false: "false";
        }>, z.ZodTransform<boolean, "" | "0" | "1" | "true" | "false">>;
        readonly default: "false";
        readonly boolean: true;
        readonly help: "Add a resource_link block for every file a cell created. Off by default: several clients drop a whole reply (images included) over such a block; the files stay listed in the reply, in list_files and as resources.";
    };
    readonly 'snapshot-dir': {
        readonly schema: z.ZodOptional<z.ZodString>;
        readonly default: undefined;
        readonly help: "Where memory snapshots of the modern runtime are cached (used when nothing is preloaded, or when every preloaded package is pure Python: the snapshot then holds them imported); \"none\" disables them. Must be owned by this user and writable by no one else (default: $XDG_CACHE_HOME/pyodide-mcp/snapshots, else ~/.cache/pyodide-mcp/snapshots).";
    };
    readonly 'state-dir': {
        readonly schema: z.ZodOptional<z.ZodString>;
        readonly default: undefined;
        readonly help: "Directory where every session's workspace files and cells are saved as they change, so that after a restart a call with a saved session_id restores the session (files copied back, cells replayed). Default: none, nothing is written to disk. Must be owned by this user and writable by no one else: whoever can write it can run code in restored sessions.";
    };
    readonly 'max-history-cells': {
        readonly schema: z.ZodCoercedNumber<unknown>;
        readonly default: "500";
        readonly help: "Most cells of a session kept for export_notebook; older ones are dropped (the export says how many).";
    };
    readonly 'max-history-bytes': {
        readonly schema: z.ZodCoercedNumber<unknown>;
        readonly default: string;
        readonly help: "Most bytes of text (code, streams, results, errors, display texts) of a session's cells kept in the server for export_notebook, and of its replay log with --state-dir; the oldest cells are dropped first (the export and a restore say how many), and a single cell larger than this is kept with its outputs elided. Each session's history takes at most about twice this in the server's memory.";
    };
    readonly tools: {
        readonly schema: z.ZodOptional<z.ZodPipe<z.ZodString, z.ZodTransform<string[], string>>>;
        readonly default: undefined;
        readonly help: "Comma-separated allow-list of the tools to expose (default: all of the profile).";
    };
    readonly profile: {
        readonly schema: z.ZodEnum<{
            full: "full";
            compact: "compact";
        }>;
        readonly default: "full";
        readonly help: "Tool set: \"full\" (every tool) or \"compact\" (execute_code, list_files, read_file, write_file, list_variables, inspect_variable, reset_session, with shorter descriptions, for small context windows).";
    };
    readonly 'wheels-dir': {
        readonly schema: z.ZodOptional<z.ZodString>;
        readonly default: undefined;
        readonly help: "Directory of the modern runtime's wheels, used instead of the defaults (the package's wheels/, then $XDG_CACHE_HOME/pyodide-mcp/<pyodide version>/wheels, else ~/.cache/…, filled by `pyodide-mcp fetch-wheels`).";
    };
    readonly 'lock-file': {
        readonly schema: z.ZodOptional<z.ZodString>;
        readonly default: undefined;
        readonly help: "pyodide-lock.json the modern runtime loads packages by and verifies wheels against, instead of the installed pyodide package's own (a mirror's or a test's lock with extra packages; `pyodide-mcp fetch-wheels --lock-file` takes the same file). It decides which wheel bytes are trusted: name only a file you trust.";
    };
    readonly http: {
        readonly schema: z.ZodOptional<z.ZodPipe<z.ZodString, z.ZodTransform<{
            host: string;
            port: number;
        }, string>>>;
        readonly default: undefined;
        readonly cliOnly: true;
        readonly help: "Serve MCP over Streamable HTTP at http://HOST:PORT/mcp instead of stdio: [HOST]:PORT, HOST 127.0.0.1 when left out, PORT 0 picks a free one (default: stdio).";
    };
    readonly 'auth-token': {
        readonly schema: z.ZodOptional<z.ZodString>;
        readonly default: undefined;
        readonly cliOnly: true;
        readonly help: "With --http: every request must carry \"Authorization: Bearer TOKEN\" (401 otherwise). Required to bind a non-loopback address. Prefer the env twin: a flag is visible in the process list.";
    };
    readonly 'allowed-hosts': {
        readonly schema: z.ZodOptional<z.ZodPipe<z.ZodPipe<z.ZodString, z.ZodTransform<string[], string>>, z.ZodArray<z.ZodString>>>;
        readonly default: undefined;
        readonly cliOnly: true;
        readonly help: "With --http: comma-separated host names the server answers to in the Host and Origin headers (DNS-rebinding protection). Default: localhost, 127.0.0.1 and [::1] on a loopback address; any host otherwise (the token guards it).";
    };
    readonly 'max-clients': {
        readonly schema: z.ZodCoercedNumber<unknown>;
        readonly default: "64";
        readonly cliOnly: true;
        readonly help: "With --http: most MCP sessions (clients) open at once; one more is refused with 503.";
    };
};
export type FlagName = keyof typeof FLAGS;
/** What a flag's value is once validated: the output type of its row's schema. */
export type FlagValue<F extends FlagName> = z.output<(typeof FLAGS)[F]['schema']>;
/** The validated configuration, as `toConfig` builds it from the flags. Durations are in milliseconds. */
export type Config = ReturnType<typeof toConfig>;
/** `PYODIDE_MCP_SESSION_TTL` for `session-ttl`. */
export declare function envName(flag: string): string;
export type CliAction = {
    action: 'help';
} | {
    action: 'version';
} | {
    action: 'run';
    config: Config;
};
/** Parses argv and env. Throws a TypeError naming the bad flag (or env var) and value. */
export declare function parseConfig(argv: string[], env: Record<string, string | undefined>, cwd?: string): CliAction;
/** A flag's raw value (from argv, env, options or its default) and the name an error about it uses. */
export type RawFlag = {
    given: unknown;
    source: string;
};
/**
 * Validates every flag's raw value with its row's schema and builds the Config. The CLI reads argv and env; the
 * library reads createSandbox() options (src/api/options.ts): both go through here, so defaults and rules are the
 * same. Throws a TypeError naming the bad source and value.
 */
export declare function buildConfig(raw: (flag: FlagName) => RawFlag, nameOf: (flag: FlagName) => string, cwd: string, env: Record<string, string | undefined>): Config;
/**
 * The fields the server uses, each from its flag. Flags are read in table order, so when several values are
 * bad the error names the first one `--help` lists.
 */
declare function toConfig(read: <F extends FlagName>(flag: F) => FlagValue<F>, cwd: string, env: Record<string, string | undefined>): {
    sessionTtlMs: number;
    defaultTimeoutMs: number;
    maxTimeoutMs: number;
    maxSessions: number;
    maxCodeChars: number;
    /** Caps on what one execution returns, in characters; stdout and stderr each get --max-output-chars. */
    limits: {
        stdout: number;
        stderr: number;
        result: number;
        traceback: number;
    };
    interruptGraceMs: number;
    maxHeapMb: number;
    warmSessions: number;
    runtime: "modern" | "legacy" | "auto";
    preload: string[];
    fileLimits: {
        maxFileBytes: number;
        maxSessionBytes: number;
        maxFiles: number;
    };
    maxImageBytes: number;
    maxReadBytes: number;
    figureFormats: ("png" | "svg")[];
    /** Empty when no --allow-dir is given: host file access is off. */
    allowDirs: string[];
    allowAllDirs: boolean;
    isolation: "process" | "thread";
    maxReplyBytes: number;
    maxSessionMemoryMb: number;
    allowNetwork: boolean;
    indexUrl: string;
    maxMemoryMb: number;
    /** False with --no-structured-content: replies carry text (and images) only. */
    structuredContent: boolean;
    resourceLinks: boolean;
    /** null when snapshots are disabled (`--snapshot-dir none`). */
    snapshotDir: string | null;
    maxHistoryCells: number;
    maxHistoryBytes: number;
    /** Where sessions are saved across restarts (--state-dir), or null: nothing is written to disk. */
    stateDir: string | null;
    /** Tool allow-list (--tools), or null for every tool of the profile. */
    tools: string[] | null;
    profile: "full" | "compact";
    /** Where the modern runtime's wheels are looked for, in order (src/python/wheel-check.ts). */
    wheelDirs: WheelDir[];
    /** The pyodide-lock.json given with --lock-file (absolute), or undefined for the pinned one. */
    lockFile: string | undefined;
    /** Streamable HTTP (--http): null serves stdio. */
    http: {
        listen: {
            host: string;
            port: number;
        } | null;
        authToken: string | null;
        /** null: the default for the address (loopback names on loopback, any otherwise). */
        allowedHosts: string[] | null;
        maxClients: number;
    };
};
/** The text of `--help`. */
export declare function helpText(version: string): string;
export {};
