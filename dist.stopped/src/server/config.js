/**
 * Every server setting: one table of flags, each with an env-var twin, a default and a zod schema.
 * `parseConfig` is the only function that turns argv/env into a validated `Config`, and every type here is
 * derived from the table: a flag's value is typed by the output of its row's schema.
 */
import { delimiter, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ISOLATIONS, RUNTIME_KINDS } from '../contract.js';
import { PACKAGE_WHEELS_DIR } from '../paths.js';
import { modernVersion } from '../python/distribution.js';
import { cacheRoot, userWheelsDir } from '../python/user-cache.js';
import { DEFAULT_PRELOAD } from '../python/wheels.js';
import { DEFAULT_MAX_WASM_MEMORY_MB } from '../sandbox/worker-sandbox.js';
const seconds = (max) => z.coerce.number().positive().max(max);
const count = (min, max) => z.coerce.number().int().min(min).max(max);
const bytes = (max) => z.coerce.number().int().min(0).max(max);
// Security: a switch is on only when asked for; an env twin that is set but empty (`PYODIDE_MCP_ALLOW_NETWORK=`) is off.
const flag = z.enum(['true', 'false', '1', '0', '']).transform((v) => v === 'true' || v === '1');
const list = z.string().transform((value) => value.trim() === 'none'
    ? []
    : value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean));
/**
 * `--http [HOST]:PORT`: where the Streamable HTTP server listens. HOST is an IPv4 address, a name, or an IPv6 address
 * in brackets, 127.0.0.1 when left out; PORT 0 picks a free one.
 */
const listenAddress = z
    .string()
    .regex(/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]*):(\d{1,5})$/, 'expected [HOST]:PORT, e.g. 127.0.0.1:8931 or :0')
    .transform((value) => {
    const at = value.lastIndexOf(':');
    const host = value.slice(0, at).replace(/^\[(.*)\]$/, '$1');
    return { host: host || '127.0.0.1', port: Number(value.slice(at + 1)) };
})
    .refine((address) => address.port <= 65535, 'the port must be at most 65535');
/** The flag table: `--help` is generated from it and the README documents it. One row per flag (hence prettier-ignore). */
// prettier-ignore
export const FLAGS = {
    'session-ttl': { schema: seconds(30 * 24 * 3600), default: '1800', option: 'sessionTtlSeconds', help: 'Seconds of inactivity after which a session is closed.' },
    timeout: { schema: seconds(24 * 3600), default: '30', option: 'timeoutSeconds', help: 'Default time limit of one execution, in seconds.' },
    'max-timeout': { schema: seconds(24 * 3600), default: '300', option: 'maxTimeoutSeconds', help: 'Largest timeout_seconds a call may ask for.' },
    'max-sessions': { schema: count(1, 1000), default: '16', help: 'Most sessions alive at once; creating one more fails.' },
    'max-code-chars': { schema: count(1, 10_000_000), default: '200000', help: 'Longest code accepted by execute_code, in characters.' },
    'max-output-chars': { schema: count(0, 10_000_000), default: '20000', help: 'Cap on stdout and on stderr of one execution (each), in characters.' },
    'max-result-chars': { schema: count(0, 10_000_000), default: '10000', help: "Cap on the repr of a cell's last expression, in characters." },
    'max-traceback-chars': { schema: count(0, 10_000_000), default: '10000', help: 'Cap on the traceback of an error and on its message, each in characters.' },
    'interrupt-grace': { schema: count(50, 60_000), default: '1500', option: 'interruptGraceMs', help: 'Milliseconds Python gets to stop after an interrupt before its worker is terminated.' },
    'max-heap-mb': { schema: count(64, 65536), default: '512', help: "Cap on each session worker's JavaScript heap, in MB." },
    'warm-sessions': { schema: count(0, 64), default: '2', help: 'Sessions kept booted and ready, so create_session returns at once; 0 disables the pool.' },
    runtime: { schema: z.enum(['auto', ...RUNTIME_KINDS]), default: 'auto', help: 'Pyodide distribution: auto picks the newest that can satisfy --preload.' },
    preload: { schema: list, default: DEFAULT_PRELOAD.join(','), help: 'Comma-separated packages imported in every new session, or "none".' },
    'max-file-bytes': { schema: bytes(2 ** 31), default: String(50 * 2 ** 20), help: 'Largest single file in a session, in bytes.' },
    'max-session-bytes': { schema: bytes(2 ** 33), default: String(200 * 2 ** 20), help: 'Total bytes the code of one session may write to its filesystem.' },
    'max-files': { schema: count(1, 1_000_000), default: '1000', help: 'Most files the code of one session may create.' },
    'max-image-bytes': { schema: bytes(2 ** 28), default: String(2 ** 20), help: 'Largest figure returned inline as an image block; larger ones are linked only.' },
    'max-read-bytes': { schema: count(1024, 2 ** 28), default: String(2 ** 20), help: 'Largest page read_file returns in one call (larger files are paged).' },
    'figure-formats': { schema: list.pipe(z.array(z.enum(['png', 'svg'])).min(1)), default: 'png', help: 'Formats open matplotlib figures are saved in: png, or png,svg.' },
    'allow-dir': { schema: z.array(z.string().min(1)), default: undefined, multiple: true, option: 'allowDirs', help: `Host directory that upload_file/download_file may use (repeatable; env: several joined by "${delimiter}"). Default: none, so host file access is off until a directory is named.` },
    'allow-all-dirs': { schema: flag, default: 'false', boolean: true, help: 'Let upload_file/download_file use any host directory (credential files stay refused).' },
    isolation: { schema: z.enum(ISOLATIONS), default: 'process', help: 'Where each session lives: "process" (a child process of its own: the security boundary between sessions) or "thread" (a worker thread of the server: lighter, for trusted code only; not a boundary between sessions).' },
    'max-reply-bytes': { schema: count(65_536, 64 * 2 ** 20), default: String(4 * 2 ** 20), help: 'Largest tool reply, in bytes (text, structured content and images together); beyond it images are dropped and text is cut, and the reply says so.' },
    'max-session-memory-mb': { schema: count(128, 65536), default: '2048', help: "Cap on all memory of one session's process (RSS: WebAssembly, JavaScript heap, buffers, its files), in MB; above it the session is ended (process isolation, Linux)." },
    'allow-network': { schema: flag, default: 'false', boolean: true, help: 'Let install_packages fetch pure-Python wheels that are not in the offline set from --index-url (the server fetches and verifies them; sessions never get network).' },
    'index-url': { schema: z.string().url(), default: 'https://pypi.org/pypi', help: 'PyPI-style JSON index used by install_packages with --allow-network.' },
    'max-memory-mb': { schema: count(64, 4096), default: String(DEFAULT_MAX_WASM_MEMORY_MB), help: "Cap on each session's Python (WebAssembly) heap, in MB; beyond it Python raises MemoryError." },
    'no-structured-content': { schema: flag, default: 'false', boolean: true, help: 'Leave outputSchema and structuredContent out of every tool, so the text block carries the reply (compact JSON; readable text for execute_code and run_file). For clients that show the model only the text of a structured reply and drop its images (Mastra).' },
    'resource-links': { schema: flag, default: 'false', boolean: true, help: 'Add a resource_link block for every file a cell created. Off by default: several clients drop a whole reply (images included) over such a block; the files stay listed in the reply, in list_files and as resources.' },
    'snapshot-dir': { schema: z.string().min(1).optional(), default: undefined, help: 'Where memory snapshots of the modern runtime are cached (used when nothing is preloaded, or when every preloaded package is pure Python: the snapshot then holds them imported); "none" disables them. Must be owned by this user and writable by no one else (default: $XDG_CACHE_HOME/pyodide-mcp/snapshots, else ~/.cache/pyodide-mcp/snapshots).' },
    'state-dir': { schema: z.string().min(1).optional(), default: undefined, help: "Directory where every session's workspace files and cells are saved as they change, so that after a restart a call with a saved session_id restores the session (files copied back, cells replayed). Default: none, nothing is written to disk. Must be owned by this user and writable by no one else: whoever can write it can run code in restored sessions." },
    'max-history-cells': { schema: count(0, 100_000), default: '500', help: 'Most cells of a session kept for export_notebook; older ones are dropped (the export says how many).' },
    'max-history-bytes': { schema: count(4096, 2 ** 32), default: String(8 * 2 ** 20), help: "Most bytes of text (code, streams, results, errors, display texts) of a session's cells kept in the server for export_notebook, and of its replay log with --state-dir; the oldest cells are dropped first (the export and a restore say how many), and a single cell larger than this is kept with its outputs elided. Each session's history takes at most about twice this in the server's memory." },
    tools: { schema: list.optional(), default: undefined, help: 'Comma-separated allow-list of the tools to expose (default: all of the profile).' },
    profile: { schema: z.enum(['full', 'compact']), default: 'full', help: 'Tool set: "full" (every tool) or "compact" (execute_code, list_files, read_file, write_file, list_variables, inspect_variable, reset_session, with shorter descriptions, for small context windows).' },
    'wheels-dir': { schema: z.string().min(1).optional(), default: undefined, help: "Directory of the modern runtime's wheels, used instead of the defaults (the package's wheels/, then $XDG_CACHE_HOME/pyodide-mcp/<pyodide version>/wheels, else ~/.cache/…, filled by `pyodide-mcp fetch-wheels`)." },
    'lock-file': { schema: z.string().min(1).optional(), default: undefined, help: "pyodide-lock.json the modern runtime loads packages by and verifies wheels against, instead of the installed pyodide package's own (a mirror's or a test's lock with extra packages; `pyodide-mcp fetch-wheels --lock-file` takes the same file). It decides which wheel bytes are trusted: name only a file you trust." },
    http: { schema: listenAddress.optional(), default: undefined, cliOnly: true, help: 'Serve MCP over Streamable HTTP at http://HOST:PORT/mcp instead of stdio: [HOST]:PORT, HOST 127.0.0.1 when left out, PORT 0 picks a free one (default: stdio).' },
    'auth-token': { schema: z.string().min(16, 'a token must be at least 16 characters').max(4096).optional(), default: undefined, cliOnly: true, help: 'With --http: every request must carry "Authorization: Bearer TOKEN" (401 otherwise). Required to bind a non-loopback address. Prefer the env twin: a flag is visible in the process list.' },
    'allowed-hosts': { schema: list.pipe(z.array(z.string().regex(/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)$/, 'expected host names without ports')).min(1)).optional(), default: undefined, cliOnly: true, help: 'With --http: comma-separated host names the server answers to in the Host and Origin headers (DNS-rebinding protection). Default: localhost, 127.0.0.1 and [::1] on a loopback address; any host otherwise (the token guards it).' },
    'max-clients': { schema: count(1, 10_000), default: '64', cliOnly: true, help: 'With --http: most MCP sessions (clients) open at once; one more is refused with 503.' },
};
/** `PYODIDE_MCP_SESSION_TTL` for `session-ttl`. */
export function envName(flag) {
    return 'PYODIDE_MCP_' + flag.toUpperCase().replaceAll('-', '_');
}
/** Parses argv and env. Throws a TypeError naming the bad flag (or env var) and value. */
export function parseConfig(argv, env, cwd = process.cwd()) {
    const values = parseFlags(argv);
    if (values.help)
        return { action: 'help' };
    if (values.version)
        return { action: 'version' };
    const config = buildConfig((flag) => {
        const fromArgv = values[flag];
        const given = fromArgv ?? env[envName(flag)] ?? FLAGS[flag].default;
        return { given: typeof given === 'boolean' ? String(given) : given, source: fromArgv !== undefined ? `--${flag}` : envName(flag) };
    }, (flag) => `--${flag}`, cwd, env);
    return { action: 'run', config };
}
/**
 * Validates every flag's raw value with its row's schema and builds the Config. The CLI reads argv and env; the
 * library reads createSandbox() options (src/api/options.ts): both go through here, so defaults and rules are the
 * same. Throws a TypeError naming the bad source and value.
 */
export function buildConfig(raw, nameOf, cwd, env) {
    /** One flag's validated value. */
    const read = (flag) => {
        const spec = FLAGS[flag];
        let { given } = raw(flag);
        if (spec.multiple)
            given = typeof given === 'string' ? given.split(delimiter).filter(Boolean) : (given ?? []);
        const parsed = check(FLAGS[flag], given);
        if (!parsed.success) {
            throw new TypeError(`Invalid value ${JSON.stringify(given)} for ${raw(flag).source}: ${parsed.error.issues[0]?.message}. ${spec.help}`);
        }
        return parsed.data;
    };
    const config = toConfig(read, cwd, env);
    if (config.defaultTimeoutMs > config.maxTimeoutMs) {
        throw new TypeError(`${nameOf('timeout')} (${config.defaultTimeoutMs / 1000}) is larger than ${nameOf('max-timeout')} (${config.maxTimeoutMs / 1000}); raise ${nameOf('max-timeout')} or lower ${nameOf('timeout')}.`);
    }
    return config;
}
/**
 * Validates a value with a row's schema, typed by that row. The explicit type argument matters: inferred from
 * `row.schema`, zod's parameter would widen to the constraint `z.ZodType` and the output to `unknown`.
 */
function check(row, given) {
    return z.safeParse(row.schema, given);
}
/** argv checked against the table by node:util (unknown flags, a missing value, a value given to a switch). */
function parseFlags(argv) {
    const options = { help: { type: 'boolean' }, version: { type: 'boolean' } };
    for (const [flag, spec] of Object.entries(FLAGS)) {
        options[flag] = spec.boolean ? { type: 'boolean' } : spec.multiple ? { type: 'string', multiple: true } : { type: 'string' };
    }
    try {
        return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
    }
    catch (error) {
        throw new TypeError(`${error instanceof Error ? error.message : String(error)}. Run with --help to see every flag.`, { cause: error });
    }
}
/**
 * The fields the server uses, each from its flag. Flags are read in table order, so when several values are
 * bad the error names the first one `--help` lists.
 */
function toConfig(read, cwd, env) {
    const ms = (flag) => Math.round(read(flag) * 1000);
    // Security: a per-user cache by default (src/python/user-cache.ts).
    const snapshotDir = (value) => (value === 'none' ? null : (value ?? join(cacheRoot(env), 'snapshots')));
    return {
        sessionTtlMs: ms('session-ttl'),
        defaultTimeoutMs: ms('timeout'),
        maxTimeoutMs: ms('max-timeout'),
        maxSessions: read('max-sessions'),
        maxCodeChars: read('max-code-chars'),
        /** Caps on what one execution returns, in characters; stdout and stderr each get --max-output-chars. */
        limits: {
            stdout: read('max-output-chars'),
            stderr: read('max-output-chars'),
            result: read('max-result-chars'),
            traceback: read('max-traceback-chars'),
        },
        interruptGraceMs: read('interrupt-grace'),
        maxHeapMb: read('max-heap-mb'),
        warmSessions: read('warm-sessions'),
        runtime: read('runtime'),
        preload: read('preload'),
        fileLimits: { maxFileBytes: read('max-file-bytes'), maxSessionBytes: read('max-session-bytes'), maxFiles: read('max-files') },
        maxImageBytes: read('max-image-bytes'),
        maxReadBytes: read('max-read-bytes'),
        figureFormats: read('figure-formats'),
        /** Empty when no --allow-dir is given: host file access is off. */
        allowDirs: read('allow-dir').map((dir) => resolve(cwd, dir)),
        allowAllDirs: read('allow-all-dirs'),
        isolation: read('isolation'),
        maxReplyBytes: read('max-reply-bytes'),
        maxSessionMemoryMb: read('max-session-memory-mb'),
        allowNetwork: read('allow-network'),
        indexUrl: read('index-url'),
        maxMemoryMb: read('max-memory-mb'),
        /** False with --no-structured-content: replies carry text (and images) only. */
        structuredContent: !read('no-structured-content'),
        resourceLinks: read('resource-links'),
        /** null when snapshots are disabled (`--snapshot-dir none`). */
        snapshotDir: snapshotDir(read('snapshot-dir')),
        maxHistoryCells: read('max-history-cells'),
        maxHistoryBytes: read('max-history-bytes'),
        /** Where sessions are saved across restarts (--state-dir), or null: nothing is written to disk. */
        stateDir: stateDir(read('state-dir'), cwd),
        /** Tool allow-list (--tools), or null for every tool of the profile. */
        tools: read('tools') ?? null,
        profile: read('profile'),
        /** Where the modern runtime's wheels are looked for, in order (src/python/wheel-check.ts). */
        wheelDirs: wheelDirs(read('wheels-dir'), cwd, env),
        /** The pyodide-lock.json given with --lock-file (absolute), or undefined for the pinned one. */
        lockFile: ((value) => (value === undefined ? undefined : resolve(cwd, value)))(read('lock-file')),
        /** Streamable HTTP (--http): null serves stdio. */
        http: {
            listen: read('http') ?? null,
            authToken: read('auth-token') ?? null,
            /** null: the default for the address (loopback names on loopback, any otherwise). */
            allowedHosts: read('allowed-hosts') ?? null,
            maxClients: read('max-clients'),
        },
    };
}
function stateDir(flag, cwd) {
    return flag === undefined ? null : resolve(cwd, flag);
}
/**
 * --wheels-dir alone when given; else the package's own wheels/ (a published package may carry them), then the
 * per-user cache that `pyodide-mcp fetch-wheels` fills, shared by every install of the pinned Pyodide version.
 */
function wheelDirs(flag, cwd, env) {
    if (flag !== undefined)
        return [{ path: resolve(cwd, flag), private: false }];
    return [
        { path: PACKAGE_WHEELS_DIR, private: false },
        { path: userWheelsDir(env, modernVersion()), private: true },
    ];
}
/** The text of `--help`. */
export function helpText(version) {
    const lines = [
        `pyodide-mcp ${version}: an MCP server (stdio, or Streamable HTTP with --http) that runs Python in Pyodide inside Node.js worker threads.`,
        '',
        'Usage: pyodide-mcp [flags]',
        "       pyodide-mcp fetch-wheels [--help]   download the modern runtime's wheels (Python 3.14) into the per-user cache",
        '',
        'Flags (each also read from the environment variable shown):',
    ];
    for (const [flag, spec] of Object.entries(FLAGS)) {
        const def = spec.default === undefined ? '' : ` (default: ${spec.default})`;
        const name = spec.boolean ? `--${flag}` : `--${flag} <${spec.multiple ? 'dir' : 'value'}>`;
        lines.push(`  ${name.padEnd(32)} ${spec.help}${def}`, `  ${''.padEnd(32)} env: ${envName(flag)}`);
    }
    lines.push('  --help                           Show this help and exit.', '  --version                        Print the version and exit.');
    return lines.join('\n') + '\n';
}
