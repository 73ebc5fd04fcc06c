/**
 * The one wire contract of a session: every message between the server, a session process, its worker thread
 * and the harness, as zod schemas with the TypeScript types inferred from them. Both sides import this module;
 * the receiving side of an untrusted boundary (server ← session process, supervisor ← worker) parses every
 * message with these schemas, so a message that is not in the contract is never acted on.
 *
 * Data flow of one request: server `SessionChannel.request(op)` → (frame over a pipe, or a direct call in thread
 * isolation) → `Supervisor` → worker `postMessage` → harness (JSON text) and back. The supervisor answers
 * `read_file` itself from its copy of the session's files; every other op is relayed to the worker.
 *
 * Longer than 300 lines on purpose: it has one job, the contract, and keeping every schema, the request union and
 * the request → reply map (`REPLIES`) in one file is what lets a reader (and the contract test) see the whole of it.
 */
import { z } from 'zod';
import { MAX_LOG_CHARS, MAX_OUTPUT_CHUNK_CHARS } from './limits.js';
import { MAX_LOAD_REASON_BYTES } from './load-reasons.js';

export { WORKSPACE } from './limits.js';

/** Pyodide distributions a worker can boot. */
export const RUNTIME_KINDS = ['modern', 'legacy'] as const;
export type RuntimeKind = (typeof RUNTIME_KINDS)[number];

/** Where a session's worker thread lives (see src/sessions/spawn.ts). */
export const ISOLATIONS = ['process', 'thread'] as const;
export type Isolation = (typeof ISOLATIONS)[number];

/** Longest path the contract carries (a workspace-relative path). */
const MAX_PATH_CHARS = 4096;
export { MAX_LOG_CHARS } from './limits.js';

const count = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const bytes = z.custom<Uint8Array>((v) => v instanceof Uint8Array, 'expected bytes (a Uint8Array)');
/** A workspace-relative path: no NUL, not absolute, never `..`. */
export const workspacePath = z
  .string()
  .min(1)
  .max(MAX_PATH_CHARS)
  .refine((p) => !p.includes('\0') && !p.startsWith('/') && !p.split('/').includes('..'), 'not a workspace-relative path');

// ---------------------------------------------------------------------------------------------------------------
// Shared shapes

export const fileLimitsSchema = z.object({ maxFileBytes: count, maxSessionBytes: count, maxFiles: count });
/** Per-session caps on the virtual filesystem. */
export type FileLimits = z.infer<typeof fileLimitsSchema>;

export const outputLimitsSchema = z.object({ stdout: count, stderr: count, result: count, traceback: count });
/** Per-call caps on what a reply may carry, in characters. */
export type OutputLimits = z.infer<typeof outputLimitsSchema>;

export const runtimeInfoSchema = z.object({
  kind: z.enum(RUNTIME_KINDS),
  python: z.string().max(200),
  pyodide: z.string().max(200),
  /**
   * The preload set with the versions the distribution's metadata gives (sessions are ready before the preload is
   * imported: see the `preload` request).
   */
  packages: z.record(z.string().max(200), z.string().max(200)),
  /** Packages this distribution can load offline. */
  available: z.array(z.string().max(200)).max(10_000),
  /** Whether the interrupt buffer is wired (false: a timeout must terminate the worker). */
  interruptible: z.boolean(),
  bootMs: z.number().nonnegative(),
});
/** What the worker knows about its runtime once booted. */
export type RuntimeInfo = z.infer<typeof runtimeInfoSchema>;

export const wireErrorSchema = z.object({
  code: z.string().max(100),
  message: z.string().max(100_000),
});
/** An error as it travels across the boundary: plain data, never a class instance. */
export type WireError = z.infer<typeof wireErrorSchema>;

/** A file as the server knows it: metadata only (contents stay with the session, read on demand). */
export const fileStatSchema = z.object({ path: workspacePath, size: count, mtimeMs: z.number() });
export type FileStat = z.infer<typeof fileStatSchema>;

/** What one request did to the workspace, as the server sees it (no bytes). */
export const fileChangesSchema = z.object({ written: z.array(fileStatSchema), deleted: z.array(workspacePath) });
export type FileChanges = z.infer<typeof fileChangesSchema>;

/** What one request did to the workspace, as the worker reports it to its supervisor (with the bytes). */
export const workerFileChangesSchema = z.object({
  written: z.array(fileStatSchema.extend({ data: bytes })),
  deleted: z.array(workspacePath),
  /** Set when the worker found the workspace over a quota (only code that bypasses the file system can do that). */
  violation: z.string().max(1_000).optional(),
});
export type WorkerFileChanges = z.infer<typeof workerFileChangesSchema>;

export const displayOutputSchema = z.object({
  mime_type: z.string(),
  /** Workspace-relative path of an image the harness saved (figures, _repr_png_). */
  path: workspacePath.optional(),
  /** Text of an HTML, Markdown or LaTeX representation. */
  text: z.string().optional(),
});
/** A rich output of a cell (IPython display protocol): an image file in the workspace, or text. */
export type DisplayOutput = z.infer<typeof displayOutputSchema>;

/** Fields the host may cut, with the characters it left out. */
export const TRUNCATABLE = ['stdout', 'stderr', 'result', 'traceback', 'error', 'display'] as const;
export const truncationSchema = z.partialRecord(z.enum(TRUNCATABLE), count).nullable();
/** Characters left out of each capped field; null when nothing was cut. */
export type Truncation = z.infer<typeof truncationSchema>;

/**
 * A package that did not load, and why: the loader's own message, cut to MAX_LOAD_REASON_BYTES of UTF-8 by the worker
 * and again by the server (src/wire/load-reasons.ts). A string of that many bytes has at most as many characters.
 */
export const packageFailureSchema = z.object({ name: z.string().max(200), reason: z.string().max(MAX_LOAD_REASON_BYTES) });
export type PackageFailure = z.infer<typeof packageFailureSchema>;

/** What loading packages did: those asked for that are loaded now, and every package that failed (requirements too). */
export const packageLoadSchema = z.object({
  loaded: z.array(z.string().max(200)).max(10_000),
  failed: z.array(packageFailureSchema).max(10_000),
});
export type PackageLoad = z.infer<typeof packageLoadSchema>;

/**
 * A cell outcome as the harness produces it. String sizes are NOT bounded here on purpose: the harness runs in the
 * user's realm, so the host caps every field itself (src/sessions/reply-caps.ts) instead of trusting its limits.
 */
const cellOutcomeBase = z.object({
  stdout: z.string(),
  stderr: z.string(),
  result: z.string().nullable(),
  error: z.object({ type: z.string(), message: z.string(), traceback: z.string() }).nullable(),
  execution_count: count,
  truncated: truncationSchema,
  /** Offline packages loaded before the run because the code imports them. */
  loaded_packages: z.array(z.string().max(200)).max(10_000),
  /** Offline packages the code imports that failed to load before the run, and why (the run's import then says why too). */
  failed_packages: z.array(packageFailureSchema).max(10_000),
  /** Figures and rich outputs, in the order they were shown. */
  display: z.array(displayOutputSchema),
  /**
   * The last value's HTML (a DataFrame's table), made only when the cell's output is streamed (someone watches the
   * session in the view). For the view alone: never part of a tool's reply, the history or the saved state.
   */
  result_html: z.string().nullable().optional(),
});
export const cellOutcomeSchema = cellOutcomeBase.extend({ changes: fileChangesSchema });
/** The answer to an `execute` / `run_file` request (the server adds session id, timing, file references). */
export type CellOutcome = z.infer<typeof cellOutcomeSchema>;

/** A cell outcome with nothing in it (a cell whose session ended before it could answer). */
export function emptyOutcome(executionCount: number): CellOutcome {
  return {
    stdout: '',
    stderr: '',
    result: null,
    error: null,
    execution_count: executionCount,
    truncated: null,
    loaded_packages: [],
    failed_packages: [],
    display: [],
    changes: { written: [], deleted: [] },
  };
}
export const workerCellOutcomeSchema = cellOutcomeBase.extend({ changes: workerFileChangesSchema });
export type WorkerCellOutcome = z.infer<typeof workerCellOutcomeSchema>;

export const packageListingSchema = z.object({
  loaded: z.record(z.string().max(200), z.string().max(200)),
  available: z.array(z.string().max(200)).max(10_000),
});
/** Packages of a session: loaded ones with versions, and those that could be loaded offline. */
export type PackageListing = z.infer<typeof packageListingSchema>;

/**
 * What a session's background preload did: each module of the preload set imported (→ its version), and each one
 * that is not, because its package (or one it needs) failed to load or its import raised, with why.
 */
export const preloadReportSchema = z.object({
  imported: z.record(z.string().max(200), z.string().max(200)),
  failed: z.array(packageFailureSchema).max(10_000),
});
export type PreloadReport = z.infer<typeof preloadReportSchema>;

// ---------------------------------------------------------------------------------------------------------------
// The session's namespace (list_variables, inspect_variable, call_function, remove_variables, reset_session).

/** A name in the namespace, or a dotted path of attributes (`df.columns`, `np.linalg.solve`): resolved with getattr only. */
export const DOTTED_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
/** A top-level name of the namespace. */
export const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const dottedName = z.string().max(500).regex(DOTTED_NAME, 'not a name or a dotted path of names');
const identifier = z.string().max(200).regex(IDENTIFIER, 'not a Python identifier');

/** What kind of thing a name holds. */
export const VARIABLE_KINDS = ['variable', 'module', 'function', 'class'] as const;

/** Shape, dtype and memory of arrays, frames and series (null for other values). Strings are capped by the host. */
const dataFacts = {
  shape: z.array(count).max(64).nullable(),
  dtype: z.string().nullable(),
  size_bytes: count.nullable(),
};
export const variableSchema = z.object({
  name: z.string(),
  type: z.string(),
  kind: z.enum(VARIABLE_KINDS),
  /** A short repr (one line). */
  repr: z.string(),
  ...dataFacts,
});
export type Variable = z.infer<typeof variableSchema>;
export const variableListingSchema = z.object({
  variables: z.array(variableSchema).max(10_000),
  /** Names that matched, before the harness's item cap. */
  total: count,
});
export type VariableListing = z.infer<typeof variableListingSchema>;

export const parameterSchema = z.object({
  name: z.string(),
  /** inspect.Parameter kind: POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD, VAR_POSITIONAL, KEYWORD_ONLY, VAR_KEYWORD. */
  kind: z.string(),
  /** The annotation as text (`int`, `list[str]`), or null. */
  annotation: z.string().nullable(),
  /** repr() of the default, or null when the parameter has none. */
  default: z.string().nullable(),
  required: z.boolean(),
});
export type Parameter = z.infer<typeof parameterSchema>;
export const inspectionSchema = z.object({
  name: z.string(),
  type: z.string(),
  kind: z.enum(VARIABLE_KINDS),
  repr: z.string(),
  doc: z.string().nullable(),
  signature: z.string().nullable(),
  /** Parameters of a callable whose signature Python can tell, else null. */
  parameters: z.array(parameterSchema).max(500).nullable(),
  source: z.string().nullable(),
  ...dataFacts,
  /** len() when it has one. */
  length: count.nullable(),
  /** DataFrame columns with their dtypes. */
  columns: z
    .array(z.object({ name: z.string(), dtype: z.string() }))
    .max(10_000)
    .nullable(),
  /** DataFrame/Series head() and describe() as text. */
  head: z.string().nullable(),
  describe: z.string().nullable(),
  /** min/max/mean of a numeric array or series. */
  stats: z.object({ min: z.number().nullable(), max: z.number().nullable(), mean: z.number().nullable() }).nullable(),
  /** Public attribute names (detail only). */
  attributes: z.array(z.string()).max(10_000).nullable(),
});
export type Inspection = z.infer<typeof inspectionSchema>;
export const removalSchema = z.object({ removed: z.array(z.string()).max(1000), not_found: z.array(z.string()).max(1000) });
export type Removal = z.infer<typeof removalSchema>;
/** A call of a namespace function with JSON arguments (call_function, registered tools). */
export const functionCallSchema = z.object({
  name: dottedName,
  args: z.array(z.unknown()).max(10_000),
  kwargs: z.record(identifier, z.unknown()),
});
export type FunctionCall = z.infer<typeof functionCallSchema>;
/** A namespace op that failed for a reason the caller can fix (a name that is not there, not callable, …). */
export const NAMESPACE_ERRORS = ['NAME_NOT_FOUND', 'NOT_CALLABLE', 'INVALID_INPUT', 'INTERRUPTED', 'FAILED'] as const;

// ---------------------------------------------------------------------------------------------------------------
// Requests (server → session) and the reply each one gets. `REPLIES` is the request→reply map that types
// `SessionChannel.request()`; the supervisor answers `read_file`, the worker everything else.

/**
 * On a cell request: send the cell's stdout and stderr while it runs (`output` messages), for the browser view; set
 * only while a view is served, so that a server without one pays nothing.
 */
const streamOutput = z.boolean().optional();

export const requestSchemas = {
  execute: z.object({ type: z.literal('execute'), code: z.string(), limits: outputLimitsSchema, stream_output: streamOutput }),
  run_file: z.object({ type: z.literal('run_file'), path: workspacePath, limits: outputLimitsSchema, stream_output: streamOutput }),
  write_file: z.object({ type: z.literal('write_file'), path: workspacePath, data: bytes, append: z.boolean(), overwrite: z.boolean() }),
  delete_file: z.object({ type: z.literal('delete_file'), path: workspacePath }),
  read_file: z.object({ type: z.literal('read_file'), path: workspacePath, offset: count, length: count }),
  load_packages: z.object({ type: z.literal('load_packages'), packages: z.array(z.string().max(200)) }),
  list_packages: z.object({ type: z.literal('list_packages') }),
  install_wheel: z.object({ type: z.literal('install_wheel'), filename: z.string().max(300), data: bytes }),
  /**
   * Imports the preload set in the background (workers/thread/preloader.ts): answered once every package is imported,
   * while requests sent meanwhile run between its steps.
   */
  preload: z.object({ type: z.literal('preload') }),
  /**
   * Primes the session (workers/thread/prime.ts): runs up to `cells` trivial cells in a scratch namespace, a few at a
   * time between requests, so that the session's code paths (the interpreter's, the harness's, the worker's) are
   * compiled by the optimizing tiers before an agent's first calls; stops at the first other request. Sent to idle
   * sessions (PreloadScheduler). Nothing of it is visible.
   */
  prime: z.object({ type: z.literal('prime'), cells: count }),
  call_function: z.object({
    type: z.literal('call_function'),
    call: functionCallSchema,
    limits: outputLimitsSchema,
    stream_output: streamOutput,
  }),
  list_variables: z.object({
    type: z.literal('list_variables'),
    filter: z.string().max(200).nullable(),
    max_items: count,
    repr_chars: count,
  }),
  inspect_variable: z.object({ type: z.literal('inspect_variable'), name: dottedName, detail: z.boolean(), text_chars: count }),
  remove_variables: z.object({ type: z.literal('remove_variables'), names: z.array(identifier).max(1000) }),
  reset: z.object({ type: z.literal('reset'), clear_files: z.boolean() }),
} as const;

export type Op = keyof typeof requestSchemas;
/** A request body without its id. */
export type RequestOf<K extends Op> = z.infer<(typeof requestSchemas)[K]>;
export type SessionRequest = { [K in Op]: RequestOf<K> & { id: number } }[Op];

/** A page of a file read from the session's copy: `data` is at most the requested length. */
export const filePageSchema = z.object({ data: bytes, size: count });
export type FilePage = z.infer<typeof filePageSchema>;

/** What the server accepts as the reply to each op. */
export const REPLIES = {
  execute: cellOutcomeSchema,
  run_file: cellOutcomeSchema,
  write_file: fileChangesSchema,
  delete_file: fileChangesSchema,
  read_file: filePageSchema,
  load_packages: packageLoadSchema,
  list_packages: packageListingSchema,
  install_wheel: z.null(),
  preload: preloadReportSchema,
  /** Cells run (fewer than asked when a request came first). */
  prime: z.object({ cells: count }),
  call_function: cellOutcomeSchema,
  list_variables: variableListingSchema,
  inspect_variable: inspectionSchema,
  remove_variables: removalSchema,
  /** How many names were removed, and the files deleted when asked to. */
  reset: z.object({ removed: count, changes: fileChangesSchema }),
} as const satisfies Record<Op, z.ZodType>;
export type ReplyOf<K extends Op> = z.infer<(typeof REPLIES)[K]>;

/** What the supervisor accepts from its worker for each op it relays (file bytes included). */
export const WORKER_REPLIES = {
  ...REPLIES,
  execute: workerCellOutcomeSchema,
  run_file: workerCellOutcomeSchema,
  write_file: workerFileChangesSchema,
  delete_file: workerFileChangesSchema,
  call_function: workerCellOutcomeSchema,
  reset: z.object({ removed: count, changes: workerFileChangesSchema }),
} as const satisfies Record<Op, z.ZodType>;
export type WorkerReplyOf<K extends Op> = z.infer<(typeof WORKER_REPLIES)[K]>;
/** The ops the worker answers (its dispatch table, workers/thread/ops.ts): all but `read_file`, the supervisor's. */
export type WorkerOp = Exclude<Op, 'read_file'>;

// ---------------------------------------------------------------------------------------------------------------
// Messages a session sends (worker → supervisor, and supervisor → server).

const replyMessage = z.discriminatedUnion('ok', [
  z.object({ type: z.literal('reply'), id: count, ok: z.literal(true), value: z.unknown() }),
  z.object({ type: z.literal('reply'), id: count, ok: z.literal(false), error: wireErrorSchema }),
]);

// Discriminated: a message is checked against the one shape its `type` names. (A plain union tried the shapes in
// order, and a reply, the last and by far the most frequent, paid for five failed matches: 8.8 us of 9.3.)
export const sessionMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), info: runtimeInfoSchema }),
  z.object({ type: z.literal('boot_failed'), error: wireErrorSchema }),
  z.object({
    type: z.literal('log'),
    message: z.string().transform((m) => (m.length > MAX_LOG_CHARS ? `${m.slice(0, MAX_LOG_CHARS)} [... cut]` : m)),
  }),
  /** A memory snapshot the worker made right after boot (before any user code), when asked to. */
  z.object({ type: z.literal('snapshot'), data: bytes.refine((d) => d.byteLength > 0 && d.byteLength < 512 * 2 ** 20, 'snapshot size') }),
  /**
   * A piece of the output of the running cell whose request (`id`) asked for it (`stream_output`), for the browser
   * view. Untrusted like everything else: the server keeps it only for the request running, within the cell's limits.
   */
  z.object({ type: z.literal('output'), id: count, stream: z.enum(['stdout', 'stderr']), text: z.string().max(MAX_OUTPUT_CHUNK_CHARS) }),
  /** The supervisor found the session breaking a limit it cannot be allowed to break; the server ends it. */
  z.object({ type: z.literal('fatal'), reason: z.string().max(2_000) }),
  replyMessage,
]);
export type SessionMessage = z.infer<typeof sessionMessageSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Starting a session.

/** Everything a worker needs to boot (passed as `workerData`; to a session process in its `start` message). */
export const workerInitSchema = z.object({
  runtime: z.enum(RUNTIME_KINDS),
  /** Directory of the distribution's files. */
  distDir: z.string(),
  /** Directory of local wheels (modern runtime), or null. */
  wheelsDir: z.string().nullable(),
  /** Wheels in wheelsDir that the server verified against the lock: the only ones the session may load. */
  wheelFiles: z.array(z.string()),
  /**
   * Modern runtime: the source texts of the verified wheels' EM_JS / EM_ASM snippets (src/python/em-snippets.ts),
   * compiled into the worker's loader before the lockdown; bounded as the host bounds them.
   */
  emSnippets: z
    .array(z.string().max(64 * 1024))
    .max(4096)
    .refine((texts) => texts.reduce((sum, text) => sum + text.length, 0) <= 4 * 1024 * 1024, 'snippets beyond 4 MiB in all')
    .default([]),
  /** Modern runtime: the pyodide-lock.json packages are loaded by (the pinned one, or --lock-file); null for legacy. */
  lockFile: z.string().nullable(),
  /** Packages imported in the background after the worker reports ready, when the server sends `preload`. */
  preload: z.array(z.string()),
  /** Absolute path of workers/python/harness.py (the modules beside it are read from its directory). */
  harnessPath: z.string(),
  fileLimits: fileLimitsSchema,
  /** Formats figures are captured in, e.g. ["png"] or ["png", "svg"]. */
  figureFormats: z.array(z.string()),
  /** Modern runtime: a memory snapshot to boot from (this worker's own copy), or null to boot from scratch. */
  snapshot: bytes.nullable(),
  /** Modern runtime: boot in snapshot-making mode and post a `snapshot` message before anything else runs. */
  makeSnapshot: z.boolean(),
  /**
   * Modern runtime, pure-Python preload set: the snapshot made (makeSnapshot) holds `preload` imported, or the one
   * booted from (snapshot) does; after a restore the worker unpacks the same verified wheels' files again.
   */
  snapshotPreload: z.boolean(),
});
export type WorkerInit = z.infer<typeof workerInitSchema>;

/** How a supervisor starts its worker thread. */
export const supervisorOptionsSchema = z.object({
  init: workerInitSchema,
  /** V8 heap cap for the worker's JavaScript, in MB. */
  maxHeapMb: z.number().int().positive(),
  /** Cap on each WebAssembly memory (the Python heap), in MB. */
  maxWasmMemoryMb: z.number().int().positive(),
});
export type SupervisorOptions = z.infer<typeof supervisorOptionsSchema>;

/** Messages from the server to a session process. */
export const processControlSchema = z.discriminatedUnion('control', [
  z.object({ control: z.literal('start'), options: supervisorOptionsSchema }),
  z.object({ control: z.literal('interrupt') }),
  /** Holds (or releases) the session's background steps between two steps: src/sessions/background-gate.ts. */
  z.object({ control: z.literal('hold'), hold: z.boolean() }),
  z.object({ control: z.literal('request'), request: z.custom<SessionRequest>((v) => typeof v === 'object' && v !== null) }),
]);
export type ProcessControl = z.infer<typeof processControlSchema>;

/** Parses one request (by its type) against the contract; throws on anything else. */
export function parseRequest(raw: unknown): SessionRequest {
  const type = (raw as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !(type in requestSchemas)) throw new Error(`unknown request type ${JSON.stringify(type)}`);
  const id = count.parse((raw as { id?: unknown }).id);
  return { ...requestSchemas[type as Op].parse(raw), id } as SessionRequest;
}

// ---------------------------------------------------------------------------------------------------------------
// Worker ↔ harness: JSON text in both directions (user input is never pasted into Python source). The harness
// (workers/python/harness.py, HARNESS_OPS) mirrors these op names; test/wire/contract.test.ts checks that they agree.

export const harnessRequestSchemas = {
  configure: z.object({ op: z.literal('configure'), figure_formats: z.array(z.string()) }),
  import_modules: z.object({ op: z.literal('import_modules'), names: z.array(z.string()) }),
  imported_names: z.object({ op: z.literal('imported_names'), code: z.string() }),
  run: z.object({
    op: z.literal('run'),
    code: z.string(),
    limits: outputLimitsSchema,
    filename: z.string().optional(),
    /** Instead of running `code`, call a namespace function with JSON arguments (call_function). */
    call: functionCallSchema.optional(),
    /** A priming cell (workers/thread/prime.ts): run in a scratch namespace with its own count (workers/python/harness.py, _session_for). */
    scratch: z.boolean().optional(),
    /** Forward the cell's output while it runs (workers/python/streams.py, LiveOutput → workers/thread/live-output.ts). */
    stream: z.boolean().optional(),
  }),
  list_variables: z.object({
    op: z.literal('list_variables'),
    filter: z.string().nullable(),
    max_items: z.number(),
    repr_chars: z.number(),
  }),
  inspect_variable: z.object({ op: z.literal('inspect_variable'), name: z.string(), detail: z.boolean(), text_chars: z.number() }),
  remove_variables: z.object({ op: z.literal('remove_variables'), names: z.array(z.string()) }),
  reset: z.object({ op: z.literal('reset'), clear_files: z.boolean() }),
  install_wheel: z.object({ op: z.literal('install_wheel'), filename: z.string(), data: z.string() }),
  /** Second half of a cell, after its callbacks ran (workers/thread/realm/cell-scope.ts). */
  finish: z.object({
    op: z.literal('finish'),
    interrupted: z.boolean(),
    callback_errors: z.array(z.string()),
    more_errors: z.number(),
    pending_timers: z.number(),
    scratch: z.boolean().optional(),
  }),
  /** How many asyncio tasks the cell still has pending (-1: interrupted while counting). */
  tasks: z.object({ op: z.literal('tasks'), scratch: z.boolean().optional() }),
} as const;
export type HarnessOp = keyof typeof harnessRequestSchemas;
export type HarnessRequestOf<K extends HarnessOp> = z.infer<(typeof harnessRequestSchemas)[K]>;

/** A namespace op's answer from the harness: its value, or an error the caller can fix. */
function nsReply<T extends z.ZodType>(value: T) {
  return z.union([
    z.object({ ok: z.literal(true), value }),
    z.object({ ok: z.literal(false), code: z.enum(NAMESPACE_ERRORS), message: z.string() }),
  ]);
}

export const harnessReplySchemas = {
  /** errno numbers of this interpreter's libc, for the file quota. */
  configure: z.object({
    ENOSPC: z.number(),
    EFBIG: z.number(),
    EDQUOT: z.number(),
    ENOENT: z.number(),
    EEXIST: z.number(),
    EISDIR: z.number(),
    EACCES: z.number(),
  }),
  /** Imported module → version, and the modules whose import raised → the exception (`Type: message`). */
  import_modules: z.object({ versions: z.record(z.string(), z.string()), failed: z.record(z.string(), z.string()) }),
  /** Top-level module names the code imports. */
  imported_names: z.array(z.string()),
  /** The outcome, or (when the cell left callbacks or tasks) a request to settle them and then call `finish`. */
  run: z.union([
    cellOutcomeBase.omit({ loaded_packages: true, failed_packages: true }),
    z.object({ settle: z.literal(true), interrupted: z.boolean(), tasks: z.number() }),
  ]),
  finish: cellOutcomeBase.omit({ loaded_packages: true, failed_packages: true }),
  tasks: z.number(),
  install_wheel: z.null(),
  list_variables: nsReply(variableListingSchema),
  inspect_variable: nsReply(inspectionSchema),
  remove_variables: nsReply(removalSchema),
  reset: nsReply(z.object({ removed: z.number() })),
} as const satisfies Record<HarnessOp, z.ZodType>;
export type HarnessReplyOf<K extends HarnessOp> = z.infer<(typeof harnessReplySchemas)[K]>;
