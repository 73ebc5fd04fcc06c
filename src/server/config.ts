/**
 * The validated configuration: `parseConfig` is the only function that turns argv/env into a `Config`, and
 * `buildConfig` the one that the library's createSandbox() options go through too. Every value comes from a row of
 * the flag table (flags.ts), checked by its schema; the checks that span several flags (timeouts, the memory budget,
 * `--tools` against the tool index) are here.
 */
import { delimiter, join, resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { z } from 'zod';
import { PACKAGE_WHEELS_DIR } from '../paths.js';
import { modernVersion } from '../python/distribution.js';
import { cacheRoot, userWheelsDir } from '../python/user-cache.js';
import type { WheelDir } from '../python/wheel-check.js';
import { fitMemoryBudget, machineMemory, type MachineMemory, type MemoryBudget } from '../sessions/memory-budget.js';
import { envName, FLAGS, type FlagName, type FlagSpec, type FlagValue } from './flags.js';
import { TOOL_NAMES } from './tools/index.js';
import { UsageError } from '../errors.js';

/**
 * The validated configuration, as `toConfig` builds it from the flags and `buildConfig` fits it into the memory
 * budget (src/sessions/memory-budget.ts). Durations are in milliseconds.
 */
export type Config = Omit<ReturnType<typeof toConfig>, 'maxTotalMemoryMb'> & {
  /** The memory budget in force; --max-sessions (and --max-session-memory-mb) may have been lowered to fit it. */
  memoryBudget: MemoryBudget;
};

export type CliAction = { action: 'help' } | { action: 'version' } | { action: 'run'; config: Config };

/** Parses argv and env. Throws a UsageError naming the bad flag (or env var) and value. */
export function parseConfig(
  argv: string[],
  env: Record<string, string | undefined>,
  cwd = process.cwd(),
  machine: MachineMemory = machineMemory(),
): CliAction {
  const values = parseFlags(argv);
  if (values.help) return { action: 'help' };
  if (values.version) return { action: 'version' };
  const config = buildConfig(
    (flag) => {
      const fromArgv = values[flag];
      const given: unknown = fromArgv ?? env[envName(flag)] ?? FLAGS[flag].default;
      return {
        given: typeof given === 'boolean' ? String(given) : given,
        source: fromArgv !== undefined ? `--${flag}` : envName(flag),
        explicit: (fromArgv ?? env[envName(flag)]) !== undefined,
      };
    },
    (flag) => `--${flag}`,
    cwd,
    env,
    machine,
  );
  return { action: 'run', config };
}

/**
 * A flag's raw value (from argv, env, options or its default), the name an error about it uses, and whether it was
 * given (false for the default: a default may yield to the memory budget, a given value never does).
 */
export type RawFlag = { given: unknown; source: string; explicit: boolean };

/**
 * Validates every flag's raw value with its row's schema and builds the Config. The CLI reads argv and env; the
 * library reads createSandbox() options (src/api/options.ts): both go through here, so defaults and rules are the
 * same. Throws a UsageError naming the bad source and value, or giving the arithmetic of a memory budget that the
 * sessions cannot fit in. `machine`: the figures the budget is computed from (this process's by default).
 */
export function buildConfig(
  raw: (flag: FlagName) => RawFlag,
  nameOf: (flag: FlagName) => string,
  cwd: string,
  env: Record<string, string | undefined>,
  machine: MachineMemory = machineMemory(),
): Config {
  /** One flag's validated value. */
  const read = <F extends FlagName>(flag: F): FlagValue<F> => {
    const spec: FlagSpec = FLAGS[flag];
    let { given } = raw(flag);
    if (spec.multiple) given = typeof given === 'string' ? given.split(delimiter).filter(Boolean) : (given ?? []);
    const parsed = check(FLAGS[flag], given);
    if (!parsed.success) {
      throw new UsageError(
        `Invalid value ${JSON.stringify(given)} for ${raw(flag).source}: ${parsed.error.issues[0]?.message}. ${spec.help}`,
      );
    }
    return parsed.data;
  };
  const { maxTotalMemoryMb, ...config } = toConfig(read, cwd, env);
  if (config.defaultTimeoutMs > config.maxTimeoutMs) {
    throw new UsageError(
      `${nameOf('timeout')} (${config.defaultTimeoutMs / 1000}) is larger than ${nameOf('max-timeout')} (${config.maxTimeoutMs / 1000}); raise ${nameOf('max-timeout')} or lower ${nameOf('timeout')}.`,
    );
  }
  // A name that is no tool is a typo: refused at start, not served as an allow-list that exposes less than meant.
  const unknownTool = config.tools?.find((name) => !(TOOL_NAMES as readonly string[]).includes(name));
  if (unknownTool !== undefined) {
    throw new UsageError(
      `Invalid value for ${raw('tools').source}: unknown tool ${JSON.stringify(unknownTool)}. Tools: ${TOOL_NAMES.join(', ')}.`,
    );
  }
  const fitted = fitMemoryBudget(
    {
      maxSessions: config.maxSessions,
      sessionMb: config.maxSessionMemoryMb,
      totalMb: maxTotalMemoryMb,
      explicit: { maxSessions: raw('max-sessions').explicit, sessionMb: raw('max-session-memory-mb').explicit },
      names: { maxSessions: nameOf('max-sessions'), sessionMb: nameOf('max-session-memory-mb'), totalMb: nameOf('max-total-memory-mb') },
    },
    machine,
  );
  return { ...config, maxSessions: fitted.maxSessions, maxSessionMemoryMb: fitted.sessionMb, memoryBudget: fitted.budget };
}

/**
 * Validates a value with a row's schema, typed by that row. The explicit type argument matters: inferred from
 * `row.schema`, zod's parameter would widen to the constraint `z.ZodType` and the output to `unknown`.
 */
function check<R extends FlagSpec>(row: R, given: unknown): z.ZodSafeParseResult<z.output<R['schema']>> {
  return z.safeParse<R['schema']>(row.schema, given);
}

/** argv checked against the table by node:util (unknown flags, a missing value, a value given to a switch). */
function parseFlags(argv: string[]) {
  const options: NonNullable<ParseArgsConfig['options']> = { help: { type: 'boolean' }, version: { type: 'boolean' } };
  for (const [flag, spec] of Object.entries<FlagSpec>(FLAGS)) {
    options[flag] = spec.boolean ? { type: 'boolean' } : spec.multiple ? { type: 'string', multiple: true } : { type: 'string' };
  }
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}. Run with --help to see every flag.`, { cause: error });
  }
}

/**
 * The fields the server uses, each from its flag. Flags are read in table order, so when several values are
 * bad the error names the first one `--help` lists.
 */
function toConfig(read: <F extends FlagName>(flag: F) => FlagValue<F>, cwd: string, env: Record<string, string | undefined>) {
  const ms = (flag: 'session-ttl' | 'timeout' | 'max-timeout') => Math.round(read(flag) * 1000);
  // Security: a per-user cache by default (src/python/user-cache.ts).
  const snapshotDir = (value: string | undefined) => (value === 'none' ? null : (value ?? join(cacheRoot(env), 'snapshots')));
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
    /** Bound of each session's call queue (src/sessions/session-queue.ts). */
    queue: { maxCalls: read('max-queued-calls'), maxBytes: read('max-queued-bytes') },
    /** Deadline of a request that runs no user code; package loads get PACKAGE_OP_FACTOR times as long. */
    opTimeoutMs: Math.round(read('op-timeout') * 1000),
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
    /** --max-total-memory-mb as given (undefined: derived); `buildConfig` turns it into `memoryBudget`. */
    maxTotalMemoryMb: read('max-total-memory-mb'),
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
    /** Prefix of session ids (--instance-id), or null. */
    instanceId: read('instance-id') ?? null,
    /** A lease on a saved session not renewed for this long is stale (src/sessions/state-lease.ts). */
    stateLeaseMs: Math.round(read('state-lease') * 1000),
    /** Streamable HTTP (--http): null serves stdio. */
    http: {
      listen: read('http') ?? null,
      authToken: read('auth-token') ?? null,
      /** Named tokens, one tenant each (--auth-token-file, absolute), or null; read at start by the command. */
      authTokenFile: ((value) => (value === undefined ? null : resolve(cwd, value)))(read('auth-token-file')),
      /** null: the default for the address (loopback names on loopback, any otherwise). */
      allowedHosts: read('allowed-hosts') ?? null,
      maxClients: read('max-clients'),
      /** null: a quarter of --max-sessions, at least 1 (see httpLimits). */
      maxSessionsPerClient: read('max-sessions-per-client') ?? null,
      /** null: no share per tenant, only --max-sessions. */
      maxSessionsPerTenant: read('max-sessions-per-tenant') ?? null,
      maxClientRequests: read('max-client-requests'),
      /** null: 4 times the largest message (see httpLimits). */
      maxInflightBodyBytes: read('max-inflight-body-bytes') ?? null,
      /** null: the largest message plus 1 MiB (see httpLimits). */
      maxClientBodyBytes: read('max-client-body-bytes') ?? null,
      bodyTimeoutMs: Math.round(read('http-body-timeout') * 1000),
      /** How long a drain (SIGTERM, POST /drain) lets running calls finish. */
      drainGraceMs: Math.round(read('drain-grace') * 1000),
    },
    /** The browser view (docs/view.md): its own listener in stdio mode (--view), and whether it may interrupt. */
    view: {
      listen: read('view') ?? null,
      control: read('view-control'),
    },
  };
}

/**
 * The HTTP bounds whose defaults follow other settings: the largest message (from --max-code-chars and
 * --max-file-bytes, see maxMessageBytes) and --max-sessions.
 */
export function httpLimits(config: Config, maxBodyBytes: number) {
  const { http } = config;
  return {
    maxSessionsPerClient: http.maxSessionsPerClient ?? Math.max(1, Math.ceil(config.maxSessions / 4)),
    maxInflightBodyBytes: http.maxInflightBodyBytes ?? 4 * maxBodyBytes,
    maxClientBodyBytes: http.maxClientBodyBytes ?? maxBodyBytes + 2 ** 20,
  };
}

function stateDir(flag: string | undefined, cwd: string): string | null {
  return flag === undefined ? null : resolve(cwd, flag);
}

/**
 * --wheels-dir alone when given; else the package's own wheels/ (a published package may carry them), then the
 * per-user cache that `pyodide-mcp fetch-wheels` fills, shared by every install of the pinned Pyodide version.
 */
function wheelDirs(flag: string | undefined, cwd: string, env: Record<string, string | undefined>): WheelDir[] {
  if (flag !== undefined) return [{ path: resolve(cwd, flag), private: false }];
  return [
    { path: PACKAGE_WHEELS_DIR, private: false },
    { path: userWheelsDir(env, modernVersion()), private: true },
  ];
}
