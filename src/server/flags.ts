/**
 * The flag table: every server setting once, with its env-var twin, its default, its help and a zod schema. The CLI
 * (config.ts), `--help`, the createSandbox() options (src/api/options.ts) and docs/configuration.md
 * (`npm run docs:config`) are all read off it; a flag's value is typed by the output of its row's schema.
 */
import { delimiter } from 'node:path';
import { z } from 'zod';
import { ISOLATIONS, RUNTIME_KINDS } from '../wire/contract.js';
import { DEFAULT_PRELOAD } from '../python/wheels.js';
import { DEFAULT_MAX_WASM_MEMORY_MB } from '../supervisor/worker-sandbox.js';
import { COMPACT_TOOL_NAMES } from './tools/index.js';
import { INSTANCE_ID } from '../sessions/session-id.js';

const seconds = (max: number) => z.coerce.number().positive().max(max);
const count = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const bytes = (max: number) => z.coerce.number().int().min(0).max(max);
// Security: a switch is on only when asked for; an env twin that is set but empty (`PYODIDE_MCP_ALLOW_NETWORK=`) is off.
const flag = z.enum(['true', 'false', '1', '0', '']).transform((v) => v === 'true' || v === '1');
const list = z.string().transform((value) =>
  value.trim() === 'none'
    ? []
    : value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
);

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

/** One row of the flag table. */
export interface FlagSpec {
  /** Validates the raw value (a string; strings for a `multiple` flag) and converts it. */
  schema: z.ZodType;
  /** The raw default, as it would be typed after the flag; undefined when `help` says what applies instead. */
  default: string | undefined;
  help: string;
  /** Repeatable; the env twin holds several values joined by the path delimiter. */
  multiple?: boolean;
  /** A switch: the flag alone means true; the env twin takes true/false/1/0. */
  boolean?: boolean;
  /** The createSandbox() option, when the flag's camelCase name would not say its unit (default: the camelCase). */
  option?: string;
  /** A setting of the command (how it serves), not of the sandbox: no createSandbox() option. */
  cliOnly?: boolean;
}

/** The flag table: `--help` and docs/configuration.md (`npm run docs:config`) are generated from it. One row per flag (hence prettier-ignore). */
// prettier-ignore
export const FLAGS = {
  'session-ttl': { schema: seconds(30 * 24 * 3600), default: '1800', option: 'sessionTtlSeconds', help: 'Seconds of inactivity after which a session is closed.' },
  timeout: { schema: seconds(24 * 3600), default: '30', option: 'timeoutSeconds', help: 'Default time limit of one execution, in seconds.' },
  'max-timeout': { schema: seconds(24 * 3600), default: '300', option: 'maxTimeoutSeconds', help: 'Largest timeout_seconds a call may ask for.' },
  'max-sessions': { schema: count(1, 1000), default: '16', help: 'Most sessions alive at once (warm ones included); creating one more fails. Left at its default, lowered to what fits in --max-total-memory-mb (logged at start).' },
  'max-code-chars': { schema: count(1, 10_000_000), default: '200000', help: 'Longest code accepted by execute_code, in characters.' },
  'max-output-chars': { schema: count(0, 10_000_000), default: '20000', help: 'Cap on stdout and on stderr of one execution (each), in characters.' },
  'max-result-chars': { schema: count(0, 10_000_000), default: '10000', help: "Cap on the repr of a cell's last expression, in characters." },
  'max-traceback-chars': { schema: count(0, 10_000_000), default: '10000', help: 'Cap on the traceback of an error and on its message, each in characters.' },
  'interrupt-grace': { schema: count(50, 60_000), default: '1500', option: 'interruptGraceMs', help: 'Milliseconds Python gets to stop after an interrupt before its worker is terminated.' },
  'max-queued-calls': { schema: count(1, 100_000), default: '64', help: "Most calls waiting in one session's queue behind its running call; one more is refused at once with QUEUE_FULL (nothing queued is lost)." },
  'max-queued-bytes': { schema: bytes(2 ** 32), default: String(64 * 2 ** 20), help: "Most characters of code plus bytes of file data held by one session's queued calls (the running one included); past it a call is refused at once with QUEUE_FULL, except on an idle session." },
  'op-timeout': { schema: seconds(24 * 3600), default: '60', option: 'opTimeoutSeconds', help: 'Time limit, in seconds, of a session request that runs no user code (list_packages, write_file, delete_file, read_file); package loads and installs get 10 times as long. A session that does not answer in time is interrupted, then ended (SESSION_DEAD).' },
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
  'max-total-memory-mb': { schema: count(256, 16 * 2 ** 20).optional(), default: undefined, help: "Memory budget of the whole server, in MB: --max-sessions × --max-session-memory-mb plus the server's heap limit (V8's, set by node --max-old-space-size) must fit in it, or the server refuses to start and says what to lower (a --max-sessions left at its default is lowered to fit instead); and a new session is refused (MEMORY_BUDGET) while the memory measured (server and session processes) plus --max-session-memory-mb would exceed it. Default: 90 % of the machine's memory, or of the cgroup's memory limit when lower." },
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
  profile: { schema: z.enum(['full', 'compact']), default: 'full', help: `Tool set: "full" (every tool) or "compact" (${COMPACT_TOOL_NAMES.join(', ')}, with shorter descriptions, for small context windows).` },
  'wheels-dir': { schema: z.string().min(1).optional(), default: undefined, help: "Directory of the modern runtime's wheels, used instead of the defaults (the package's wheels/, then $XDG_CACHE_HOME/pyodide-mcp/<pyodide version>/wheels, else ~/.cache/…, filled by `pyodide-mcp fetch-wheels`)." },
  'lock-file': { schema: z.string().min(1).optional(), default: undefined, help: "pyodide-lock.json the modern runtime loads packages by and verifies wheels against, instead of the installed pyodide package's own (a mirror's or a test's lock with extra packages; `pyodide-mcp fetch-wheels --lock-file` takes the same file). It decides which wheel bytes are trusted: name only a file you trust." },
  'instance-id': { schema: z.string().regex(INSTANCE_ID, 'expected 1 to 32 of a-z, 0-9 and "-", not starting or ending with "-" (e.g. py-3)').optional(), default: undefined, help: 'Routing prefix of this server\'s session ids: they become "<instance-id>.<192 random bits>", so a proxy in front of several servers can send a call to the one holding its session from session_id alone; a call naming another instance\'s session fails with WRONG_INSTANCE, naming that instance. Default: none (ids are the random part alone). Saved sessions (--state-dir) keep their ids.' },
  'state-lease': { schema: seconds(3600), default: '30', option: 'stateLeaseSeconds', help: 'With --state-dir and --instance-id (several instances sharing one state directory): seconds after which a session\'s lease (owner.json in its saved directory, renewed every third of this while the session lives) is stale, so that another instance may restore the session; until then a call for it elsewhere fails with WRONG_INSTANCE naming the holder. The instances\' clocks must agree to well within it.' },
  http: { schema: listenAddress.optional(), default: undefined, cliOnly: true, help: 'Serve MCP over Streamable HTTP at http://HOST:PORT/mcp instead of stdio: [HOST]:PORT, HOST 127.0.0.1 when left out, PORT 0 picks a free one (default: stdio).' },
  'auth-token': { schema: z.string().min(16, 'a token must be at least 16 characters').max(4096).optional(), default: undefined, cliOnly: true, help: 'With --http: every request must carry "Authorization: Bearer TOKEN" (401 otherwise), or a token of --auth-token-file; this one is the tenant "default". A token (or --auth-token-file) is required to bind a non-loopback address. Prefer the env twin: a flag is visible in the process list.' },
  'auth-token-file': { schema: z.string().min(1).optional(), default: undefined, cliOnly: true, help: 'With --http: a file of named bearer tokens, one tenant per line as name=token (# starts a comment), beside --auth-token (the tenant "default"). Each tenant sees only its own Python sessions, files and registered tools; a session_id or MCP session of another tenant is unknown to it. Read once at start; refused if group or others may write it. Tokens go in a file (or the env twin of --auth-token), not in argv, which every local user can read in the process list.' },
  'allowed-hosts': { schema: list.pipe(z.array(z.string().regex(/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)$/, 'expected host names without ports')).min(1)).optional(), default: undefined, cliOnly: true, help: 'With --http: comma-separated host names the server answers to in the Host and Origin headers (DNS-rebinding protection). Default: localhost, 127.0.0.1 and [::1] on a loopback address; any host otherwise (the token guards it).' },
  'max-clients': { schema: count(1, 10_000), default: '64', cliOnly: true, help: 'With --http: most MCP sessions (clients) open at once; one more is refused with 503.' },
  'max-sessions-per-client': { schema: count(1, 1000).optional(), default: undefined, cliOnly: true, help: 'With --http: most Python sessions one client (MCP session) may hold at once, its share of --max-sessions; one more fails with CLIENT_SESSION_LIMIT. Default: a quarter of --max-sessions, at least 1 (4 of 16).' },
  'max-sessions-per-tenant': { schema: count(1, 1000).optional(), default: undefined, cliOnly: true, help: 'With --http: most Python sessions one tenant (a bearer token: all its clients together) may hold at once, its share of --max-sessions; one more fails with CLIENT_SESSION_LIMIT. Default: no share of its own, only --max-sessions (set it when tenants must not be able to take every session).' },
  'max-client-requests': { schema: count(1, 10_000), default: '16', cliOnly: true, help: 'With --http: most JSON-RPC requests one client may have awaiting replies; one more is refused with 429 (notifications, such as cancellations, always pass).' },
  'max-inflight-body-bytes': { schema: count(2 ** 20, 2 ** 34).optional(), default: undefined, cliOnly: true, help: 'With --http: most bytes of request bodies held at once over all clients (counted as they arrive, until answered); a body that does not fit is refused with 503 and Retry-After. The last MiB is kept for bodies up to 64 KiB. Default: 4 times the largest message (about 354 MB with the default --max-file-bytes).' },
  'max-client-body-bytes': { schema: count(2 ** 20, 2 ** 34).optional(), default: undefined, cliOnly: true, help: 'With --http: most bytes of request bodies one client may hold at once; beyond it 503 and Retry-After. Default: the largest message plus 1 MiB (one largest upload and small calls beside it).' },
  'http-body-timeout': { schema: seconds(3600), default: '120', cliOnly: true, help: 'With --http: seconds a request body has to arrive in; a slower one is answered 408 and its bytes released (a slow body cannot hold the budgets).' },
  'drain-grace': { schema: seconds(3600), default: '25', cliOnly: true, help: 'With --http: seconds a drain (SIGTERM, or POST /drain with the token of --auth-token) lets running calls finish before the server saves state and exits; meanwhile /healthz says "draining" and new MCP sessions, new Python sessions and restores are refused. Calls still running then end with SERVER_CLOSING. Keep it below the orchestrator\'s kill timeout (Kubernetes: terminationGracePeriodSeconds, 30 by default).' },
  view: { schema: listenAddress.optional(), default: undefined, cliOnly: true, help: 'In stdio mode: serve the browser view (a read-only live notebook of every session) on a loopback listener of its own at http://HOST:PORT/view ([HOST]:PORT, HOST 127.0.0.1 when left out, PORT 0 picks a free one); its URL with a fresh token goes to stderr. With --http the view is always served at /view of the same server, behind its token (docs/view.md).' },
  'view-control': { schema: flag, default: 'false', boolean: true, cliOnly: true, help: 'Give the browser view an Interrupt button for the running cell (nothing that runs code). Off: the view is read-only.' },
} as const satisfies Record<string, FlagSpec>;

export type FlagName = keyof typeof FLAGS;

/** What a flag's value is once validated: the output type of its row's schema. */
export type FlagValue<F extends FlagName> = z.output<(typeof FLAGS)[F]['schema']>;

/** `PYODIDE_MCP_SESSION_TTL` for `session-ttl`. */
export function envName(flag: string): string {
  return 'PYODIDE_MCP_' + flag.toUpperCase().replaceAll('-', '_');
}

/** The text of `--help`. */
export function helpText(version: string): string {
  const lines = [
    `pyodide-mcp ${version}: an MCP server (stdio, or Streamable HTTP with --http) that runs Python in Pyodide inside Node.js worker threads.`,
    '',
    'Usage: pyodide-mcp [flags]',
    "       pyodide-mcp fetch-wheels [--help]   download the modern runtime's wheels (Python 3.14) into the per-user cache",
    '',
    'Flags (each also read from the environment variable shown):',
  ];
  for (const [flag, spec] of Object.entries<FlagSpec>(FLAGS)) {
    const def = spec.default === undefined ? '' : ` (default: ${spec.default})`;
    const name = spec.boolean ? `--${flag}` : `--${flag} <${spec.multiple ? 'dir' : 'value'}>`;
    lines.push(`  ${name.padEnd(32)} ${spec.help}${def}`, `  ${''.padEnd(32)} env: ${envName(flag)}`);
  }
  lines.push(
    '  --help                           Show this help and exit.',
    '  --version                        Print the version and exit.',
  );
  return lines.join('\n') + '\n';
}
