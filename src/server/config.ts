/**
 * Every server setting: one table of flags, each with an env-var twin, a default and a zod schema.
 * `parseConfig` is the only function that turns argv/env into a typed, validated `Config`.
 */
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ISOLATIONS, type Isolation } from '../contract.js';

const seconds = (max: number) => z.coerce.number().positive().max(max);
const count = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
const bytes = (max: number) => z.coerce.number().int().min(0).max(max);
const flag = z.enum(['true', 'false', '1', '0', '']).transform((v) => v === 'true' || v === '1' || v === '');
const list = z
  .string()
  .transform((value) => (value.trim() === 'none' ? [] : value.split(',').map((s) => s.trim()).filter(Boolean)));

/** The flag table: `--help` is generated from it and the README documents it. */
export const FLAGS = {
  'session-ttl': { schema: seconds(30 * 24 * 3600), default: '1800', help: 'Seconds of inactivity after which a session is closed.' },
  timeout: { schema: seconds(24 * 3600), default: '30', help: 'Default time limit of one execution, in seconds.' },
  'max-timeout': { schema: seconds(24 * 3600), default: '300', help: 'Largest timeout_seconds a call may ask for.' },
  'max-sessions': { schema: count(1, 1000), default: '16', help: 'Most sessions alive at once; creating one more fails.' },
  'max-code-chars': { schema: count(1, 10_000_000), default: '200000', help: 'Longest code accepted by execute_code, in characters.' },
  'max-output-chars': { schema: count(0, 10_000_000), default: '20000', help: 'Cap on stdout and on stderr of one execution (each), in characters.' },
  'max-result-chars': { schema: count(0, 10_000_000), default: '10000', help: "Cap on the repr of a cell's last expression, in characters." },
  'max-traceback-chars': { schema: count(0, 10_000_000), default: '10000', help: 'Cap on the traceback of an error, in characters.' },
  'interrupt-grace': { schema: count(50, 60_000), default: '1500', help: 'Milliseconds Python gets to stop after an interrupt before its worker is terminated.' },
  'max-heap-mb': { schema: count(64, 65536), default: '512', help: "Cap on each session worker's JavaScript heap, in MB." },
  'warm-sessions': { schema: count(0, 64), default: '2', help: 'Sessions kept booted and ready, so create_session returns at once; 0 disables the pool.' },
  runtime: { schema: z.enum(['auto', 'modern', 'legacy']), default: 'auto', help: 'Pyodide distribution: auto picks the newest that can satisfy --preload.' },
  preload: { schema: list, default: 'numpy,pandas,matplotlib,sympy', help: 'Comma-separated packages imported in every new session, or "none".' },
  'max-file-bytes': { schema: bytes(2 ** 31), default: String(50 * 2 ** 20), help: 'Largest single file in a session, in bytes.' },
  'max-session-bytes': { schema: bytes(2 ** 33), default: String(200 * 2 ** 20), help: 'Total bytes the code of one session may write to its filesystem.' },
  'max-files': { schema: count(1, 1_000_000), default: '1000', help: 'Most files the code of one session may create.' },
  'max-image-bytes': { schema: bytes(2 ** 28), default: String(2 ** 20), help: 'Largest figure returned inline as an image block; larger ones are linked only.' },
  'max-read-bytes': { schema: count(1024, 2 ** 28), default: String(2 ** 20), help: 'Largest page read_file returns in one call (larger files are paged).' },
  'figure-formats': { schema: list.pipe(z.array(z.enum(['png', 'svg'])).min(1)), default: 'png', help: 'Formats open matplotlib figures are saved in: png, or png,svg.' },
  'allow-dir': { schema: z.array(z.string().min(1)), default: undefined, multiple: true, help: `Host directory that upload_file/download_file may use (repeatable; env: several joined by "${delimiter}"). Default: none, so host file access is off until a directory is named.` },
  'allow-all-dirs': { schema: flag, default: 'false', boolean: true, help: 'Let upload_file/download_file use any host directory (credential files stay refused).' },
  isolation: { schema: z.enum(ISOLATIONS), default: 'process', help: 'Where each session lives: "process" (a child process of its own: the security boundary between sessions) or "thread" (a worker thread of the server: lighter, for trusted code only; not a boundary between sessions).' },
  'max-reply-bytes': { schema: count(65_536, 64 * 2 ** 20), default: String(4 * 2 ** 20), help: 'Largest tool reply, in bytes (text, structured content and images together); beyond it images are dropped and text is cut, and the reply says so.' },
  'max-session-memory-mb': { schema: count(128, 65536), default: '2048', help: "Cap on all memory of one session's process (RSS: WebAssembly, JavaScript heap, buffers, its files), in MB; above it the session is ended (process isolation, Linux)." },
  'allow-network': { schema: flag, default: 'false', boolean: true, help: 'Let install_packages fetch pure-Python wheels that are not in the offline set from --index-url (the server fetches and verifies them; sessions never get network).' },
  'index-url': { schema: z.string().url(), default: 'https://pypi.org/pypi', help: 'PyPI-style JSON index used by install_packages with --allow-network.' },
  'max-memory-mb': { schema: count(64, 4096), default: '1024', help: "Cap on each session's Python (WebAssembly) heap, in MB; beyond it Python raises MemoryError." },
  'snapshot-dir': { schema: z.string().min(1).optional(), default: undefined, help: 'Where memory snapshots of the modern runtime are cached (used when nothing is preloaded); "none" disables them. Must be owned by this user and writable by no one else (default: $XDG_CACHE_HOME/pyodide-mcp/snapshots, else ~/.cache/pyodide-mcp/snapshots).' },
  'wheels-dir': { schema: z.string().min(1).optional(), default: undefined, help: "Directory of the modern runtime's wheels (default: the package's wheels/)." },
} as const satisfies Record<string, { schema: z.ZodType; default: string | undefined; help: string; multiple?: boolean; boolean?: boolean }>;

export type FlagName = keyof typeof FLAGS;

/** The validated configuration. Durations are in milliseconds. */
export interface Config {
  sessionTtlMs: number;
  defaultTimeoutMs: number;
  maxTimeoutMs: number;
  maxSessions: number;
  maxCodeChars: number;
  limits: { stdout: number; stderr: number; result: number; traceback: number };
  interruptGraceMs: number;
  maxHeapMb: number;
  warmSessions: number;
  runtime: 'auto' | 'modern' | 'legacy';
  preload: string[];
  wheelsDir: string | undefined;
  fileLimits: { maxFileBytes: number; maxSessionBytes: number; maxFiles: number };
  maxMemoryMb: number;
  isolation: Isolation;
  maxReplyBytes: number;
  maxSessionMemoryMb: number;
  allowNetwork: boolean;
  indexUrl: string;
  /** null when snapshots are disabled. */
  snapshotDir: string | null;
  maxImageBytes: number;
  maxReadBytes: number;
  figureFormats: string[];
  allowDirs: string[];
  allowAllDirs: boolean;
}

/** `PYODIDE_MCP_SESSION_TTL` for `session-ttl`. */
export function envName(flag: string): string {
  return 'PYODIDE_MCP_' + flag.toUpperCase().replaceAll('-', '_');
}

export type CliAction = { action: 'help' } | { action: 'version' } | { action: 'run'; config: Config };

/** Parses argv and env. Throws a TypeError naming the bad flag and value. */
export function parseConfig(argv: string[], env: Record<string, string | undefined>, cwd = process.cwd()): CliAction {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = { help: { type: 'boolean' }, version: { type: 'boolean' } };
  for (const [flag, spec] of Object.entries(FLAGS) as [string, { multiple?: boolean; boolean?: boolean }][]) {
    options[flag] = spec.boolean ? { type: 'boolean' } : spec.multiple ? { type: 'string', multiple: true } : { type: 'string' };
  }
  let values: Record<string, string | string[] | boolean | undefined>;
  try {
    values = parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values as typeof values;
  } catch (error) {
    throw new TypeError(`${(error as Error).message}. Run with --help to see every flag.`);
  }
  if (values.help) return { action: 'help' };
  if (values.version) return { action: 'version' };

  const raw: Record<string, unknown> = {};
  for (const [flag, spec] of Object.entries(FLAGS)) {
    const fromEnv = env[envName(flag)];
    let given: unknown = values[flag] ?? fromEnv ?? spec.default;
    if (typeof given === 'boolean') given = String(given);
    if ('multiple' in spec && typeof given === 'string') given = given.split(delimiter).filter(Boolean);
    if ('multiple' in spec && given === undefined) given = [];
    const parsed = (spec.schema as z.ZodType).safeParse(given);
    if (!parsed.success) {
      const source = values[flag] !== undefined ? `--${flag}` : envName(flag);
      throw new TypeError(`Invalid value ${JSON.stringify(given)} for ${source}: ${parsed.error.issues[0]?.message}. ${spec.help}`);
    }
    raw[flag] = parsed.data;
  }
  const ms = (flag: FlagName) => Math.round((raw[flag] as number) * 1000);
  const config: Config = {
    sessionTtlMs: ms('session-ttl'),
    defaultTimeoutMs: ms('timeout'),
    maxTimeoutMs: ms('max-timeout'),
    maxSessions: raw['max-sessions'] as number,
    maxCodeChars: raw['max-code-chars'] as number,
    limits: {
      stdout: raw['max-output-chars'] as number,
      stderr: raw['max-output-chars'] as number,
      result: raw['max-result-chars'] as number,
      traceback: raw['max-traceback-chars'] as number,
    },
    interruptGraceMs: raw['interrupt-grace'] as number,
    maxHeapMb: raw['max-heap-mb'] as number,
    warmSessions: raw['warm-sessions'] as number,
    runtime: raw.runtime as Config['runtime'],
    preload: raw.preload as string[],
    wheelsDir: raw['wheels-dir'] as string | undefined,
    fileLimits: {
      maxFileBytes: raw['max-file-bytes'] as number,
      maxSessionBytes: raw['max-session-bytes'] as number,
      maxFiles: raw['max-files'] as number,
    },
    maxMemoryMb: raw['max-memory-mb'] as number,
    isolation: raw.isolation as Config['isolation'],
    maxReplyBytes: raw['max-reply-bytes'] as number,
    maxSessionMemoryMb: raw['max-session-memory-mb'] as number,
    allowNetwork: raw['allow-network'] as boolean,
    indexUrl: raw['index-url'] as string,
    // Security: a per-user cache by default (XDG base directories; a relative XDG_CACHE_HOME is ignored, as
    // the spec says), never a fixed name in a world-writable directory another user could create first.
    snapshotDir:
      raw['snapshot-dir'] === 'none'
        ? null
        : ((raw['snapshot-dir'] as string | undefined) ??
          join(env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(env.HOME || homedir(), '.cache'), 'pyodide-mcp', 'snapshots')),
    maxImageBytes: raw['max-image-bytes'] as number,
    maxReadBytes: raw['max-read-bytes'] as number,
    figureFormats: raw['figure-formats'] as string[],
    allowDirs: (raw['allow-dir'] as string[]).map((dir) => resolve(cwd, dir)),
    allowAllDirs: raw['allow-all-dirs'] as boolean,
  };
  if (config.defaultTimeoutMs > config.maxTimeoutMs) {
    throw new TypeError(`--timeout (${config.defaultTimeoutMs / 1000}) is larger than --max-timeout (${config.maxTimeoutMs / 1000}); raise --max-timeout or lower --timeout.`);
  }
  return { action: 'run', config };
}

/** The text of `--help`. */
export function helpText(version: string): string {
  const lines = [
    `pyodide-mcp ${version}: an MCP server (stdio) that runs Python in Pyodide inside Node.js worker threads.`,
    '',
    'Usage: pyodide-mcp [flags]',
    '',
    'Flags (each also read from the environment variable shown):',
  ];
  for (const [flag, spec] of Object.entries(FLAGS) as [string, { default?: string; help: string; multiple?: boolean; boolean?: boolean }][]) {
    const def = spec.default === undefined ? '' : ` (default: ${spec.default})`;
    const name = spec.boolean ? `--${flag}` : `--${flag} <${spec.multiple ? 'dir' : 'value'}>`;
    lines.push(`  ${name.padEnd(32)} ${spec.help}${def}`, `  ${''.padEnd(32)} env: ${envName(flag)}`);
  }
  lines.push('  --help                           Show this help and exit.', '  --version                        Print the version and exit.');
  return lines.join('\n') + '\n';
}
