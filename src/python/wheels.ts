/**
 * Offline wheel store for the modern Pyodide runtime: which wheels the preload set needs (from the pinned
 * pyodide-lock.json), and copying them from the Pyodide CDN or a mirror into a wheel directory with each file's
 * sha256 checked first. Only `pyodide-mcp fetch-wheels` (and the postinstall step) calls this; the server never
 * downloads at run time.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { fileURLToPath } from 'node:url';
import { modernDistDir, wheelClosure, type Lockfile } from './distribution.js';
import { UsageError } from '../errors.js';

/** The scientific stack: the server's default `--preload` (src/server/config.ts) and what `npm run wheels:fetch` stores by default. */
export const DEFAULT_PRELOAD = ['numpy', 'pandas', 'matplotlib', 'sympy'];

/** One wheel to store: the lock entry fields needed to fetch and verify it. */
export interface WheelEntry {
  name: string;
  version: string;
  file_name: string;
  sha256: string;
}

/** Contents of wheels/manifest.json (always generated from the lock, never hand-edited). */
export interface WheelManifest {
  pyodide_version: string;
  python: string;
  preload: string[];
  /** Closure of `preload`, dependencies before dependents. */
  wheels: WheelEntry[];
}

export interface FetchOptions {
  /** A local directory or an http(s)/file URL whose base holds the wheel files by their lock file names. */
  from: string;
  /** Real manifest from buildManifest, or any object of the same shape (tests use synthetic ones). */
  manifest: Pick<WheelManifest, 'wheels'>;
  destDir: string;
  log?: (line: string) => void;
  /** Called as each wheel's bytes arrive, and once more when it is stored (`done`). */
  onProgress?: (progress: FetchProgress) => void;
  /** An http(s) mirror must start answering each request within this many ms (default 10 000). */
  connectTimeoutMs?: number;
}

/** Where a fetch stands. The lock names no sizes, so a wheel's size is known only once the source answers. */
export interface FetchProgress {
  /** 1-based position of the wheel in the manifest, and how many the manifest has. */
  index: number;
  count: number;
  fileName: string;
  /** Bytes of this wheel received so far, and its size when the source says (Content-Length, the file's size). */
  received: number;
  size: number | null;
  /** Bytes of the wheels stored in this run, and this wheel's so far. */
  totalBytes: number;
  /** The wheel is verified and stored. */
  done: boolean;
}

export interface FetchSummary {
  fetched: number;
  skipped: number;
  /** Bytes of the wheels fetched and stored in this run. */
  bytes: number;
  failed: { file_name: string; reason: string }[];
  /** The source stopped answering midway: why, and the wheels not tried after it (a later run fetches them). */
  stopped: { reason: string; untried: string[] } | null;
}

/** A source that gives no answer at all (offline, connection refused, no DNS, no answer in time). */
export class SourceUnreachable extends Error {
  constructor(
    readonly url: URL,
    readonly reason: string,
    options?: ErrorOptions,
  ) {
    super(`cannot reach ${url.host}: ${reason}`, options);
  }
}

/** Suffix of in-flight downloads; such files are never a usable wheel and are swept on a later run. */
const PART = '.part';
/** A temp file older than this is left over from an interrupted run; younger ones may belong to a concurrent install. */
const STALE_PART_MS = 60 * 60 * 1000;
/** How long an http(s) mirror may take to start answering, by default. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/**
 * Manifest for `names` and their dependency closure, from a pyodide-lock.json.
 * Throws wheelClosure's UsageError for a package the lock does not know.
 */
export function buildManifest(lock: Lockfile, names: string[], pyodideVersion = lockPyodideVersion(lock)): WheelManifest {
  return {
    pyodide_version: pyodideVersion,
    python: lock.info.python,
    preload: names,
    wheels: wheelClosure(lock, names).map(({ name, version, file_name, sha256 }) => ({ name, version, file_name, sha256 })),
  };
}

/** Pyodide version of a lock: recent locks do not record it, so fall back to the installed `pyodide` package. */
function lockPyodideVersion(lock: Lockfile): string {
  if (typeof lock.info.version === 'string') return lock.info.version;
  return (JSON.parse(readFileSync(join(modernDistDir(), 'package.json'), 'utf8')) as { version: string }).version;
}

/** Hex sha256 of a file, streamed so that large wheels are never held in memory. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/** Whether the file at `path` has the given sha256 (hex, case-insensitive). */
export async function verifyFile(path: string, sha256: string): Promise<boolean> {
  return (await sha256File(path)) === sha256.toLowerCase();
}

/**
 * Copies every wheel of `manifest` from `from` into `destDir`. Each file is written under a temporary
 * name, hashed, and renamed into place only if its sha256 matches, so destDir never holds an unverified
 * wheel under its real name. Present files with the right hash are skipped; present files with a wrong
 * hash are deleted and fetched again. Per-file problems are returned in `failed`, not thrown.
 */
export async function fetchWheels({
  from,
  manifest,
  destDir,
  log = () => {},
  onProgress = () => {},
  connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS,
}: FetchOptions): Promise<FetchSummary> {
  const source = openSource(from, connectTimeoutMs);
  await mkdir(destDir, { recursive: true });
  // An interrupted earlier run may have left temp files behind: they are unverified by definition. Young ones are
  // left alone: two installs sharing the per-user cache may be fetching at the same time.
  for (const entry of await readdir(destDir)) {
    if (!entry.endsWith(PART)) continue;
    const path = join(destDir, entry);
    const info = await stat(path).catch(() => null);
    if (info && Date.now() - info.mtimeMs > STALE_PART_MS) await rm(path, { force: true });
  }

  const summary: FetchSummary = { fetched: 0, skipped: 0, bytes: 0, failed: [], stopped: null };
  const count = manifest.wheels.length;
  for (const [position, wheel] of manifest.wheels.entries()) {
    const { file_name, sha256 } = wheel;
    // Lock file names are plain names; anything else could write outside destDir.
    if (basename(file_name) !== file_name || file_name.startsWith('.')) {
      summary.failed.push({
        file_name,
        reason: 'not a plain file name; the manifest is corrupt: regenerate it with --write-manifest-only',
      });
      continue;
    }
    const dest = join(destDir, file_name);
    if (existsSync(dest)) {
      if (await verifyFile(dest, sha256)) {
        summary.skipped++;
        continue;
      }
      log(`${file_name}: present but its sha256 does not match the lock; deleting and fetching it again`);
      await rm(dest, { force: true });
    }

    const tmp = join(destDir, `.${file_name}.${randomBytes(4).toString('hex')}${PART}`);
    const progress: FetchProgress = {
      index: position + 1,
      count,
      fileName: file_name,
      received: 0,
      size: null,
      totalBytes: summary.bytes,
      done: false,
    };
    const arrived = (bytes: number, size: number | null) => {
      progress.received += bytes;
      progress.totalBytes += bytes;
      progress.size = size;
      onProgress(progress);
    };
    try {
      const problem = await source.copyTo(file_name, tmp, arrived);
      if (problem) {
        summary.failed.push({ file_name, reason: problem });
        continue;
      }
      const actual = await sha256File(tmp);
      if (actual !== sha256.toLowerCase()) {
        summary.failed.push({
          file_name,
          reason:
            `sha256 mismatch (expected ${sha256}, got ${actual}, ${statSync(tmp).size} bytes from ${source.describe(file_name)}): ` +
            'the mirror copy is truncated, corrupt or a different build; replace it with the file from the Pyodide release matching pyodide-lock.json',
        });
        continue;
      }
      await rename(tmp, dest);
      summary.fetched++;
      summary.bytes += progress.received;
      onProgress({ ...progress, totalBytes: summary.bytes, done: true });
    } catch (err) {
      summary.failed.push({ file_name, reason: `could not copy from ${source.describe(file_name)}: ${(err as Error).message}` });
      if (err instanceof SourceUnreachable && position + 1 < count) {
        // Every later request would wait out the same connect timeout: stop, and say what was not tried.
        summary.stopped = { reason: err.message, untried: manifest.wheels.slice(position + 1).map((w) => w.file_name) };
        break;
      }
    } finally {
      // After a successful rename this is a no-op; otherwise it removes the partial or mismatching file.
      await rm(tmp, { force: true });
    }
  }
  return summary;
}

/**
 * Security: readable by all, writable by the owner only whatever the umask (it can only remove bits): a wheel is
 * code every session runs, and the per-user cache refuses files that others may write.
 */
const WHEEL_MODE = 0o644;

/** Bytes for people: "812 kB", "3.4 MB" (binary units, as the server's limits are). */
export function formatBytes(bytes: number): string {
  if (bytes === 0) return '0 kB';
  if (bytes < 2 ** 20) return `${Math.max(1, Math.round(bytes / 1024))} kB`;
  return `${(bytes / 2 ** 20).toFixed(1)} MB`;
}

/** `from` as a base URL; without a trailing slash `new URL(name, base)` would drop its last path segment. */
export function baseUrl(from: string): string {
  return from.endsWith('/') ? from : `${from}/`;
}

interface Source {
  describe(fileName: string): string;
  /** Writes the file to `tmp`, calling `arrived` as bytes come; returns a reason when the mirror does not have it. */
  copyTo(fileName: string, tmp: string, arrived: (bytes: number, size: number | null) => void): Promise<string | null>;
}

/** Passes bytes through, counting them. */
function counter(arrived: (bytes: number, size: number | null) => void, size: number | null): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      arrived(chunk.byteLength, size);
      done(null, chunk);
    },
  });
}

/** Whether `from` names an http(s) source (anything else is a directory). */
export function isUrl(from: string): boolean {
  return /^https?:\/\//i.test(from);
}

/**
 * Fetches `url`, giving up when no response has started within `timeoutMs` (a machine without network fails in
 * that time, not after the platform's own connect timeout). The body then streams without a time limit.
 */
export async function fetchWithConnectTimeout(url: URL, timeoutMs: number, method = 'GET'): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
  timer.unref();
  try {
    return await fetch(url, { method, signal: controller.signal });
  } catch (error) {
    // undici says "fetch failed" and keeps the reason (ENOTFOUND, ECONNREFUSED, …) in `cause`.
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = controller.signal.aborted
      ? (controller.signal.reason as Error).message
      : (cause?.code ?? cause?.message ?? (error as Error).message);
    throw new SourceUnreachable(url, reason, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/** A mirror: http(s) base URL via global fetch, or a local directory (path or file: URL). */
function openSource(from: string, connectTimeoutMs: number): Source {
  if (isUrl(from)) {
    const base = baseUrl(from);
    return {
      describe: (name) => new URL(name, base).href,
      async copyTo(name, tmp, arrived) {
        const url = new URL(name, base);
        const res = await fetchWithConnectTimeout(url, connectTimeoutMs);
        if (!res.ok || !res.body) {
          await res.body?.cancel();
          return `HTTP ${res.status} ${res.statusText} for ${url.href}: the mirror does not serve this file; add it to the mirror or check the --from URL`;
        }
        const length = Number(res.headers.get('content-length'));
        await pipeline(
          Readable.fromWeb(res.body as WebReadableStream<Uint8Array>),
          counter(arrived, length > 0 ? length : null),
          createWriteStream(tmp, { flags: 'wx', mode: WHEEL_MODE }),
        );
        return null;
      },
    };
  }
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(from) && !from.startsWith('file:')) {
    throw new UsageError(`Unsupported mirror ${JSON.stringify(from)}: use a local directory or an http(s):// URL.`);
  }
  const dir = from.startsWith('file:') ? fileURLToPath(from) : from;
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new UsageError(
      `Mirror directory ${JSON.stringify(dir)} does not exist: create it and put the wheel files in it, or pass an http(s) URL.`,
    );
  }
  return {
    describe: (name) => join(dir, name),
    async copyTo(name, tmp, arrived) {
      const src = join(dir, name);
      if (!existsSync(src))
        return `not found in mirror directory ${dir}: copy ${name} there from the Pyodide release matching pyodide-lock.json`;
      await pipeline(
        createReadStream(src),
        counter(arrived, statSync(src).size),
        createWriteStream(tmp, { flags: 'wx', mode: WHEEL_MODE }),
      );
      return null;
    },
  };
}
