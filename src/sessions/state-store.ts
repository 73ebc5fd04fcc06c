/**
 * Sessions kept on disk across server restarts (--state-dir): the only module that reads or writes the state
 * directory. Each session has a directory named by its id holding
 *   meta.json     {version, created_at, last_used_at} (ms since the epoch)
 *   files.json    the workspace manifest: path → {blob, size, mtime_ms}
 *   blobs/<hash>  the bytes of each file (sha256 of its path: flat names, no directories taken from the session)
 *   cells.jsonl   the cells to replay, one JSON object a line, appended as they run
 * Every file but cells.jsonl is written atomically (temp file + rename); a torn last line of cells.jsonl is ignored.
 *
 * Security: whoever can write the state directory can put code in cells.jsonl that a restore runs in a session, so
 * the directory must be this user's and writable by no one else (the checks of src/python/user-cache.ts), session
 * directories and files are created 0700/0600, session ids are checked against the exact id format before they are
 * used in a path, nothing is followed through a symbolic link (lstat, O_NOFOLLOW), and what is read back is bounded
 * by the file limits and the history bound, like a live session.
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileLimits } from '../contract.js';
import type { CellSource } from './channel.js';
import { privateDirProblem, untrustedReason } from '../python/user-cache.js';

/** A session id as newSessionId() makes them: 24 random bytes in base64url, nothing else may become a path. */
export const SESSION_ID = /^[A-Za-z0-9_-]{32}$/;

const VERSION = 1;
/** Longest cells.jsonl read back (a line holds source code up to --max-code-chars, so this is generous). */
const MAX_LOG_BYTES = 256 * 2 ** 20;

/** One cell as it is replayed: what ran, with which time limit, and how it ended then. */
export interface LoggedCell {
  source: CellSource;
  timeoutMs: number;
  /** False when the cell was interrupted (time limit, cancellation): a restore skips it. */
  completed: boolean;
  /** Its number when it ran. */
  executionCount: number;
  at: number;
}

/** A session on disk, as list_sessions shows it before it is restored. */
export interface StoredSummary {
  id: string;
  createdAt: number;
  lastUsedAt: number;
  cells: number;
}

/** A file read back for a restore. */
export interface StoredFile {
  path: string;
  data: Uint8Array;
}

/** Everything a restore needs. */
export interface StoredSession extends StoredSummary {
  files: StoredFile[];
  /** Files left out: over a file limit, unreadable, or not a regular file. */
  skippedFiles: string[];
  log: LoggedCell[];
  /** Cells no longer on disk because of the history bound (--max-history-cells). */
  dropped: number;
}

interface Manifest {
  [path: string]: { blob: string; size: number; mtime_ms: number };
}

interface Meta {
  version: number;
  created_at: number;
  last_used_at: number;
}

export class StateStore {
  /** Appended lines per session since the log was last compacted (loaded lazily). */
  private readonly logLines = new Map<string, number>();
  /** Manifests of the sessions written to in this process. */
  private readonly manifests = new Map<string, Manifest>();

  private constructor(
    readonly dir: string,
    private readonly ttlMs: number,
    private readonly limits: FileLimits,
    private readonly maxCells: number,
    private readonly log: (message: string) => void,
  ) {}

  /**
   * Opens (creating it 0700 if missing) the state directory. Throws a TypeError (a usage error) when it cannot be
   * trusted: another user's, or writable by group or others.
   */
  static open(dir: string, options: { ttlMs: number; limits: FileLimits; maxCells: number; log: (message: string) => void }): StateStore {
    const problem = privateDirProblem(dir, true, `--state-dir ${dir}`);
    if (problem) {
      throw new TypeError(
        `Cannot use --state-dir: ${problem}. Whoever can write it can put code into the sessions restored from it; use a directory only this user can write (chmod 700).`,
      );
    }
    return new StateStore(dir, options.ttlMs, options.limits, options.maxCells, options.log);
  }

  /** Starts keeping a new session (or one being restored): its directory and meta.json. */
  async create(id: string, createdAt: number, lastUsedAt = createdAt): Promise<void> {
    const dir = this.sessionDir(id);
    await mkdir(join(dir, 'blobs'), { recursive: true, mode: 0o700 });
    await this.checkDir(dir);
    await this.writeMeta(id, { version: VERSION, created_at: createdAt, last_used_at: lastUsedAt });
  }

  /** Records the last use of a session (its on-disk TTL runs from there). */
  async touch(id: string, createdAt: number, lastUsedAt: number): Promise<void> {
    await this.writeMeta(id, { version: VERSION, created_at: createdAt, last_used_at: lastUsedAt });
  }

  /** Whether a (not expired) session with this id is on disk. Expired ones are deleted on the way. */
  async has(id: string, now = Date.now()): Promise<'yes' | 'no' | 'expired'> {
    if (!SESSION_ID.test(id)) return 'no';
    const meta = await this.readMeta(id);
    if (!meta) return 'no';
    if (now - meta.last_used_at >= this.ttlMs) {
      await this.remove(id);
      return 'expired';
    }
    return 'yes';
  }

  /** Sessions on disk and not expired, except those in `live`; expired ones are deleted. */
  async list(live: Set<string>, now = Date.now()): Promise<StoredSummary[]> {
    const found: StoredSummary[] = [];
    for (const [id, meta] of await this.unexpired(live, now)) {
      const { log } = await this.readLog(id);
      found.push({ id, createdAt: meta.created_at, lastUsedAt: meta.last_used_at, cells: log.length });
    }
    return found.sort((a, b) => a.lastUsedAt - b.lastUsedAt);
  }

  /** Deletes the sessions (except those in `live`) whose TTL ran out while the server was down, or since. */
  async sweep(live: Set<string>, now = Date.now()): Promise<void> {
    await this.unexpired(live, now);
  }

  /** The sessions on disk not in `live` and not expired, with their meta; expired ones are deleted on the way. */
  private async unexpired(live: Set<string>, now: number): Promise<[string, Meta][]> {
    const found: [string, Meta][] = [];
    for (const id of await this.ids()) {
      if (live.has(id)) continue;
      const meta = await this.readMeta(id);
      if (!meta) continue;
      if (now - meta.last_used_at >= this.ttlMs) {
        await this.remove(id);
        this.log(`saved session ${id} expired`);
        continue;
      }
      found.push([id, meta]);
    }
    return found;
  }

  /** Reads a session back for a restore, within the file limits; null when there is none. */
  async load(id: string): Promise<StoredSession | null> {
    if (!SESSION_ID.test(id)) return null;
    const meta = await this.readMeta(id);
    if (!meta) return null;
    const manifest = await this.readManifest(id);
    const files: StoredFile[] = [];
    const skippedFiles: string[] = [];
    let total = 0;
    for (const [path, entry] of Object.entries(manifest)) {
      const data = await this.readRegular(join(this.sessionDir(id), 'blobs', entry.blob), this.limits.maxFileBytes);
      if (
        data === null ||
        entry.blob !== blobName(path) ||
        files.length >= this.limits.maxFiles ||
        total + data.byteLength > this.limits.maxSessionBytes
      ) {
        skippedFiles.push(path);
        continue;
      }
      total += data.byteLength;
      files.push({ path, data });
    }
    const { log, dropped } = await this.readLog(id);
    return { id, createdAt: meta.created_at, lastUsedAt: meta.last_used_at, cells: log.length, files, skippedFiles, log, dropped };
  }

  /** Records a call's change set: the bytes of the files it wrote, and the files it deleted. */
  async applyFiles(id: string, written: StoredFile[], deleted: string[]): Promise<void> {
    if (written.length === 0 && deleted.length === 0) return;
    const dir = this.sessionDir(id);
    const manifest = await this.manifestOf(id);
    for (const path of deleted) {
      const entry = manifest[path];
      if (!entry) continue;
      delete manifest[path];
      await unlink(join(dir, 'blobs', entry.blob)).catch(() => {});
    }
    for (const file of written) {
      const blob = blobName(file.path);
      await writeAtomic(join(dir, 'blobs'), blob, file.data);
      manifest[file.path] = { blob, size: file.data.byteLength, mtime_ms: Date.now() };
    }
    await writeAtomic(dir, 'files.json', JSON.stringify(manifest));
  }

  /** Appends a cell to the replay log, compacting it to the history bound now and then. */
  async appendCell(id: string, cell: LoggedCell): Promise<void> {
    const dir = this.sessionDir(id);
    const line = JSON.stringify({ cell }) + '\n';
    // O_APPEND without following a link: appendFile would follow one.
    const handle = await open(
      join(dir, 'cells.jsonl'),
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      await handle.appendFile(line);
    } finally {
      await handle.close();
    }
    let lines = this.logLines.get(id);
    if (lines === undefined) lines = (await this.readLog(id)).log.length;
    else lines++;
    this.logLines.set(id, lines);
    if (lines > Math.max(2 * this.maxCells, this.maxCells + 50)) await this.compact(id);
  }

  /** Empties the replay log (reset_session: a fresh namespace replays nothing before it). */
  async clearCells(id: string): Promise<void> {
    await writeAtomic(this.sessionDir(id), 'cells.jsonl', '');
    this.logLines.set(id, 0);
  }

  /** Deletes a session's state (close_session, expiry, a session that died). */
  async remove(id: string): Promise<void> {
    if (!SESSION_ID.test(id)) return;
    this.manifests.delete(id);
    this.logLines.delete(id);
    await rm(this.sessionDir(id), { recursive: true, force: true, maxRetries: 3 });
  }

  /** Keeps the last --max-history-cells cells of the log, counting those dropped in a header line. */
  private async compact(id: string): Promise<void> {
    const { log, dropped } = await this.readLog(id);
    const excess = Math.max(0, log.length - this.maxCells);
    const kept = log.slice(excess);
    const text = [JSON.stringify({ dropped: dropped + excess }), ...kept.map((cell) => JSON.stringify({ cell }))].join('\n') + '\n';
    await writeAtomic(this.sessionDir(id), 'cells.jsonl', text);
    this.logLines.set(id, kept.length);
  }

  /** The replay log: the last --max-history-cells cells, and how many before them are gone. */
  private async readLog(id: string): Promise<{ log: LoggedCell[]; dropped: number }> {
    const data = await this.readRegular(join(this.sessionDir(id), 'cells.jsonl'), MAX_LOG_BYTES);
    let log: LoggedCell[] = [];
    let dropped = 0;
    for (const line of data ? Buffer.from(data).toString('utf8').split('\n') : []) {
      if (!line) continue;
      let parsed: { cell?: LoggedCell; dropped?: number };
      try {
        parsed = JSON.parse(line) as typeof parsed;
      } catch {
        continue; // a line torn by a crash mid-append
      }
      if (typeof parsed.dropped === 'number') dropped += parsed.dropped;
      if (parsed.cell && isLoggedCell(parsed.cell)) log.push(parsed.cell);
    }
    if (log.length > this.maxCells) {
      dropped += log.length - this.maxCells;
      log = log.slice(log.length - this.maxCells);
    }
    return { log, dropped };
  }

  private async manifestOf(id: string): Promise<Manifest> {
    let manifest = this.manifests.get(id);
    if (!manifest) {
      manifest = await this.readManifest(id);
      this.manifests.set(id, manifest);
    }
    return manifest;
  }

  private async readManifest(id: string): Promise<Manifest> {
    const data = await this.readRegular(join(this.sessionDir(id), 'files.json'), 64 * 2 ** 20);
    if (!data) return {};
    try {
      const parsed = JSON.parse(Buffer.from(data).toString('utf8')) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
      const manifest: Manifest = Object.create(null) as Manifest;
      for (const [path, entry] of Object.entries(parsed as Record<string, Manifest[string]>)) {
        if (validPath(path) && typeof entry?.blob === 'string' && /^[0-9a-f]{64}$/.test(entry.blob)) manifest[path] = entry;
      }
      return manifest;
    } catch {
      return {};
    }
  }

  private async readMeta(id: string): Promise<Meta | null> {
    try {
      await this.checkDir(this.sessionDir(id));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.log(`state of session ${id} ignored: ${(error as Error).message}`);
      return null;
    }
    const data = await this.readRegular(join(this.sessionDir(id), 'meta.json'), 64 * 1024);
    if (!data) return null;
    try {
      const meta = JSON.parse(Buffer.from(data).toString('utf8')) as Meta;
      if (meta.version !== VERSION || !Number.isFinite(meta.created_at) || !Number.isFinite(meta.last_used_at)) return null;
      return meta;
    } catch {
      return null;
    }
  }

  private async writeMeta(id: string, meta: Meta): Promise<void> {
    await writeAtomic(this.sessionDir(id), 'meta.json', JSON.stringify(meta));
  }

  /** The session ids in the state directory (other names are ignored). */
  private async ids(): Promise<string[]> {
    try {
      return (await readdir(this.dir)).filter((name) => SESSION_ID.test(name));
    } catch (error) {
      this.log(`cannot read --state-dir ${this.dir}: ${(error as Error).message}`);
      return [];
    }
  }

  private sessionDir(id: string): string {
    // Security: the id becomes a path component only in its exact format (no '/', no '..').
    if (!SESSION_ID.test(id)) throw new Error(`not a session id: ${JSON.stringify(id.slice(0, 40))}`);
    return join(this.dir, id);
  }

  /** A session directory must be a real directory (not a link), this user's, writable by no one else. */
  private async checkDir(dir: string): Promise<void> {
    const info = await lstat(dir);
    if (!info.isDirectory()) throw new Error(`${dir} is not a directory`);
    const problem = untrustedReason(info, dir);
    if (problem) throw new Error(problem);
  }

  /** A regular file's bytes, up to `max` (null when missing, a link, larger, another user's or writable by others). */
  private async readRegular(path: string, max: number): Promise<Uint8Array | null> {
    let handle;
    try {
      handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch {
      return null;
    }
    try {
      const info: Stats = await handle.stat();
      if (!info.isFile() || info.size > max || untrustedReason(info, path)) return null;
      return new Uint8Array(await handle.readFile());
    } catch {
      return null;
    } finally {
      await handle.close();
    }
  }
}

/** The blob name of a workspace path: flat, fixed length, no part of the path reaches the file system. */
function blobName(path: string): string {
  return createHash('sha256').update(path).digest('hex');
}

function validPath(p: string): boolean {
  return p.length > 0 && p.length <= 4096 && !p.includes('\0') && !p.startsWith('/') && !p.split('/').includes('..');
}

function isLoggedCell(value: LoggedCell): boolean {
  const source = value.source as Record<string, unknown> | undefined;
  const okSource =
    typeof source === 'object' &&
    source !== null &&
    (typeof source.code === 'string' ||
      typeof source.path === 'string' ||
      (typeof source.call === 'object' && source.call !== null && typeof (source.call as { name?: unknown }).name === 'string'));
  return okSource && Number.isFinite(value.timeoutMs) && typeof value.completed === 'boolean' && Number.isFinite(value.executionCount);
}

/** Writes `name` in `dir` atomically: a fresh temp file (never through a link), then a rename over the old one. */
async function writeAtomic(dir: string, name: string, data: Uint8Array | string): Promise<void> {
  const temp = join(dir, `.tmp-${randomBytes(8).toString('hex')}`);
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    await handle.writeFile(data);
  } catch (error) {
    await handle.close();
    await unlink(temp).catch(() => {});
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, join(dir, name));
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw error;
  }
}
