/**
 * `pyodide-mcp fetch-wheels` (also `npm run wheels:fetch`) and the postinstall step: fill a wheel directory (by
 * default the per-user cache of the pinned Pyodide version) with the verified wheels the modern runtime needs for the
 * preload set. The source is the Pyodide project's CDN for the pinned version unless --from names a mirror.
 * Exit code 0 only when every wheel is present and verified. Nothing is written before the source has answered, so
 * a machine without network fails in seconds and leaves the wheel directory as it was.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { FETCH_COMMAND, modernVersion, readModernLock, type Lockfile } from './distribution.js';
import { progressReporter, StatusLine } from './fetch-progress.js';
import { privateDirProblem, userWheelsDir } from './user-cache.js';
import { checkWheelDir } from './wheel-check.js';
import {
  baseUrl,
  buildManifest,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_PRELOAD,
  fetchWheels,
  fetchWithConnectTimeout,
  formatBytes,
  isUrl,
  SourceUnreachable,
  type WheelManifest,
} from './wheels.js';

/** Where the Pyodide project publishes its releases; `v<version>/full/` is appended (what `loadPyodide` defaults its cdnUrl to). */
export const PYODIDE_CDN = 'https://cdn.jsdelivr.net/pyodide/';
/** Env var that replaces PYODIDE_CDN (a mirror with the CDN's layout, or a loopback server in tests). */
export const CDN_ENV = 'PYODIDE_MCP_CDN_URL';
/** Env twin of --lock-file, shared with the server's flag of the same name (src/server/config.ts). */
export const LOCK_ENV = 'PYODIDE_MCP_LOCK_FILE';
/** The postinstall step waits at most this long for the CDN to answer, so an offline install is not held up. */
const POSTINSTALL_TIMEOUT_S = 3;
/** Env var that turns the postinstall download off, as other packages offer for their binaries. */
export const SKIP_ENV = 'PYODIDE_MCP_SKIP_DOWNLOAD';

/** The default source: the CDN's directory for the installed `pyodide` package's version. */
export function defaultSource(env: Record<string, string | undefined>, version = modernVersion()): string {
  return `${baseUrl(env[CDN_ENV] || PYODIDE_CDN)}v${version}/full/`;
}

const usage = (
  env: Record<string, string | undefined>,
) => `Usage: pyodide-mcp fetch-wheels [--from <dir|URL>] [--preload a,b,c] [--dest dir] [--write-manifest-only]
  --from              directory or http(s) base URL holding the wheels named in pyodide-lock.json
                      (default ${defaultSource(env)}, the Pyodide project's CDN)
  --preload           packages to store, with their dependencies (default ${DEFAULT_PRELOAD.join(',')})
  --dest              target directory (default ${userWheelsDir(env, modernVersion())},
                      shared by every install of Pyodide ${modernVersion()}; the server looks there)
  --connect-timeout   seconds an http(s) source may take to answer (default ${DEFAULT_CONNECT_TIMEOUT_MS / 1000})
  --lock-file         pyodide-lock.json naming the wheels and their sha256 (default: the pinned pyodide package's;
                      env ${LOCK_ENV}); the server takes the same file with its --lock-file
  --write-manifest-only   only write <dest>/manifest.json`;

/** Where the command writes its lines, and whether per-file lines are wanted. */
interface Output {
  line(text: string): void;
  verbose: boolean;
  /** A terminal: progress rewrites one line in place. Without it, progress is one plain line per wheel stored. */
  status?: (text: string) => void;
}

/** The command's own output: stderr (stdout stays free), with a status line when stderr is a terminal. */
function stderrOutput(): Output {
  const stream = process.stderr;
  if (!stream.isTTY) return { line: (text) => stream.write(`${text}\n`), verbose: true };
  const status = new StatusLine(stream);
  return { line: (text) => status.line(text), status: (text) => status.update(text), verbose: true };
}

/** Thrown for a failure that ends the command with exit code 1 and one message. */
class Failure extends Error {}

/**
 * Runs the command. `argv` excludes the subcommand; `env` supplies the cache location and the CDN override.
 * Returns the exit code.
 */
export async function fetchWheelsCommand(
  argv: string[],
  env: Record<string, string | undefined>,
  out: Output = stderrOutput(),
): Promise<number> {
  try {
    await run(argv, env, out);
    return 0;
  } catch (error) {
    if (!(error instanceof Failure)) throw error;
    out.line(`fetch-wheels: ${error.message}`);
    return 1;
  }
}

async function run(argv: string[], env: Record<string, string | undefined>, out: Output): Promise<void> {
  const version = modernVersion();
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        from: { type: 'string' },
        preload: { type: 'string', default: DEFAULT_PRELOAD.join(',') },
        dest: { type: 'string' },
        'connect-timeout': { type: 'string', default: String(DEFAULT_CONNECT_TIMEOUT_MS / 1000) },
        'lock-file': { type: 'string' },
        'write-manifest-only': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    throw new Failure(`${(err as Error).message}\n${usage(env)}`);
  }
  if (values.help) {
    process.stdout.write(`${usage(env)}\n`);
    return;
  }
  const preload = values.preload
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (preload.length === 0) throw new Failure('--preload is empty: name at least one package, e.g. --preload numpy');
  const connectTimeoutMs = Number(values['connect-timeout']) * 1000;
  if (!(connectTimeoutMs > 0)) throw new Failure(`--connect-timeout ${values['connect-timeout']} is not a positive number of seconds`);
  const from = values.from ?? defaultSource(env, version);
  // The per-user cache gets the snapshot cache's checks; a --dest the user names is theirs to choose.
  const dest = values.dest ?? userWheelsDir(env, version);
  const privateDest = values.dest === undefined;

  const lockFile = values['lock-file'] ?? (env[LOCK_ENV] || undefined);
  let lock: Lockfile;
  try {
    lock = readModernLock(lockFile);
  } catch (err) {
    throw new Failure(`cannot read the lock file ${lockFile}: ${(err as Error).message}`);
  }
  let manifest: WheelManifest;
  try {
    manifest = buildManifest(lock, preload, version);
  } catch (err) {
    throw new Failure(`${(err as Error).message} Check the names given to --preload.`);
  }
  if (values['write-manifest-only']) {
    await writeManifest(dest, manifest, privateDest);
    out.line(`fetch-wheels: wrote ${join(dest, 'manifest.json')} (${manifest.wheels.length} wheels for ${preload.join(', ')})`);
    return;
  }

  // Nothing to download (another install of this version fetched them already): no network at all.
  const present = checkWheelDir({ path: dest, private: privateDest }, lock).verified;
  const needed = manifest.wheels.filter((wheel) => !present.has(wheel.file_name));
  if (needed.length === 0) {
    out.line(`fetch-wheels: all ${manifest.wheels.length} wheels for ${preload.join(', ')} already present and verified in ${dest}`);
    return;
  }
  if (isUrl(from)) await probe(from, needed[0]!.file_name, connectTimeoutMs, manifest.wheels.length);
  await writeManifest(dest, manifest, privateDest);
  if (out.verbose) out.line(`fetch-wheels: fetching ${needed.length} wheel(s) for ${preload.join(', ')} from ${from} into ${dest}`);

  let summary;
  try {
    summary = await fetchWheels({
      from,
      manifest,
      destDir: dest,
      connectTimeoutMs,
      log: (line) => out.verbose && out.line(`  ${line}`),
      ...(out.verbose ? { onProgress: progressReporter(out) } : {}),
    });
  } catch (err) {
    throw new Failure((err as Error).message);
  }
  const missing = summary.failed.length + (summary.stopped?.untried.length ?? 0);
  const ok = manifest.wheels.length - missing;
  if (missing > 0) {
    for (const { file_name, reason } of summary.failed) out.line(`  FAILED ${file_name}: ${reason}`);
    if (summary.stopped) {
      out.line(
        `  STOPPED: ${from} stopped answering; ${summary.stopped.untried.length} wheel(s) not tried: ${summary.stopped.untried.join(', ')}`,
      );
    }
    throw new Failure(
      `${ok}/${manifest.wheels.length} wheels present and verified in ${dest} (${formatBytes(summary.bytes)} fetched now); ` +
        `${missing} missing or unverified (nothing unverified was kept). Fix the source and run again (verified files are skipped).`,
    );
  }
  out.line(
    `fetch-wheels: ${ok}/${manifest.wheels.length} wheels for ${preload.join(', ')} present and verified in ${dest} ` +
      `(${summary.fetched} fetched, ${formatBytes(summary.bytes)}; ${summary.skipped} already present); ` +
      `the server runs Python ${manifest.python} on its next start`,
  );
}

/**
 * Asks the source for one file it must have (headers only) before anything is written, so that being offline, a
 * wrong URL or a mirror without this Pyodide version ends the command at once with one message. That message names
 * the source's whole URL: it is what a user mirrors (on another machine, or before a flight) for --from.
 */
async function probe(from: string, fileName: string, timeoutMs: number, wheels: number): Promise<void> {
  const url = new URL(fileName, baseUrl(from));
  let status: number;
  try {
    const res = await fetchWithConnectTimeout(url, timeoutMs, 'HEAD');
    status = res.status;
  } catch (error) {
    const reason = error instanceof SourceUnreachable ? error.reason : (error as Error).message;
    throw new Failure(
      `cannot reach ${baseUrl(from)} (${reason}); nothing fetched, nothing changed. The server keeps using the legacy ` +
        `runtime (Python 3.8) until this succeeds. Run \`${FETCH_COMMAND}\` again when online, or mirror that URL: ` +
        `\`${FETCH_COMMAND} --write-manifest-only --dest <dir>\` names its ${wheels} wheels in <dir>/manifest.json; put ` +
        'them in <dir> and pass --from <dir>.',
    );
  }
  if (status >= 400) {
    throw new Failure(
      `${url.href} answered HTTP ${status}: the source does not serve this Pyodide version's wheels; nothing changed. Check --from.`,
    );
  }
}

/** Writes manifest.json (generated from the lock, so it never drifts from the runtime); creates dest 0700 when private. */
async function writeManifest(dest: string, manifest: WheelManifest, privateDest: boolean): Promise<void> {
  if (privateDest) {
    // Security: whoever can write the cache runs code in every session (src/python/user-cache.ts).
    const problem = privateDirProblem(dest, true, dest);
    if (problem) throw new Failure(`cannot use the wheel cache: ${problem}. Make it yours and chmod 700, or pass --dest.`);
  } else {
    await mkdir(dest, { recursive: true });
  }
  const manifestPath = join(dest, 'manifest.json');
  await writeFile(`${manifestPath}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`);
  await rename(`${manifestPath}.tmp`, manifestPath);
}

/**
 * The postinstall step: the same fetch with a short timeout and one line of output, never a failed install. Skipped
 * with PYODIDE_MCP_SKIP_DOWNLOAD=1 and when the package itself carries the wheels. Returns the line it printed.
 */
export async function postinstall(env: Record<string, string | undefined>, packageWheelsDir: string): Promise<string> {
  const lines: string[] = [];
  const say = (text: string) => {
    lines.push(text);
    process.stderr.write(`${text}\n`);
  };
  const skip = env[SKIP_ENV];
  if (skip && skip !== '0' && skip !== 'false') {
    say(`pyodide-mcp: ${SKIP_ENV} is set: no download; the legacy runtime (Python 3.8) runs until \`${FETCH_COMMAND}\` is run`);
    return lines.join('\n');
  }
  const lock = readModernLock();
  const shipped = checkWheelDir({ path: packageWheelsDir, private: false }, lock).verified;
  if (buildManifest(lock, DEFAULT_PRELOAD).wheels.every((wheel) => shipped.has(wheel.file_name))) {
    say('pyodide-mcp: the package carries the modern runtime wheels; nothing to download');
    return lines.join('\n');
  }
  try {
    // One line either way: the summary, or why it failed (per-file lines come only from the subcommand).
    await fetchWheelsCommand(['--connect-timeout', String(POSTINSTALL_TIMEOUT_S)], env, {
      verbose: false,
      line: (text) => {
        if (!text.startsWith('  ')) say(text.replace(/^fetch-wheels: /, 'pyodide-mcp: '));
      },
    });
  } catch (error) {
    say(`pyodide-mcp: could not fetch the modern runtime's wheels (${(error as Error).message}); run \`${FETCH_COMMAND}\` later`);
  }
  return lines.join('\n');
}
