/**
 * Sessions kept on disk across server restarts (--state-dir): the only code that reads or writes the state
 * directory (with the modules it delegates to), but for the leases of a shared one (state-lease.ts: owner.json). Each session has a directory named by its id holding
 *   meta.json     {version, created_at, last_used_at} (ms since the epoch)
 *   files.json    the workspace manifest, and blobs/<hash> the bytes of each file (src/sessions/state-manifest.ts)
 *   cells.jsonl   the cells to replay (src/sessions/state-log.ts)
 * Every file but cells.jsonl is written atomically (temp file + rename, src/sessions/state-files.ts).
 *
 * Security: whoever can write the state directory can put code in cells.jsonl that a restore runs in a session, so
 * the directory must be this user's and writable by no one else (the checks of src/python/user-cache.ts), session
 * directories and files are created 0700/0600, session ids are checked against the exact id format before they are
 * used in a path, nothing is followed through a symbolic link (lstat, O_NOFOLLOW), and what is read back is bounded
 * by the file limits and the history bound, like a live session.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileLimits } from '../wire/contract.js';
import { UsageError } from '../errors.js';
import { privateDirProblem } from '../python/user-cache.js';
import { SESSION_ID } from './session-id.js';
import { checkDir, readRegular, writeAtomic } from './state-files.js';
import { CellLogs, type LogRead, type LoggedCell } from './state-log.js';
import { WorkspaceManifests, type StoredFile } from './state-manifest.js';

export type { LoggedCell, StoredFile };

// A session id as newSessionId() makes them (src/sessions/session-id.ts): nothing else may become a path.
export { SESSION_ID };

const VERSION = 1;

/** A session on disk, as list_sessions shows it before it is restored. */
export interface StoredSummary {
  id: string;
  createdAt: number;
  lastUsedAt: number;
  cells: number;
}

/** Everything a restore needs. */
export interface StoredSession extends StoredSummary, LogRead {
  /** The tenant that created it, or null (saved without one: stdio, the library, or before tenants existed). */
  owner: string | null;
  files: StoredFile[];
  /** Files left out: over a file limit, unreadable, or not a regular file. */
  skippedFiles: string[];
}

interface Meta {
  version: number;
  created_at: number;
  last_used_at: number;
  /** The tenant that created the session (HTTP, src/server/http-tenants.ts); absent: whoever names the id restores it. */
  owner?: string;
}

export class StateStore {
  private readonly manifests: WorkspaceManifests;
  private readonly logs: CellLogs;

  private constructor(
    readonly dir: string,
    private readonly ttlMs: number,
    limits: FileLimits,
    maxCells: number,
    maxBytes: number,
    private readonly log: (message: string) => void,
  ) {
    this.manifests = new WorkspaceManifests(limits);
    this.logs = new CellLogs(maxCells, maxBytes, log);
  }

  /**
   * Opens (creating it 0700 if missing) the state directory. Throws a UsageError when it cannot be trusted: another
   * user's, or writable by group or others.
   */
  static open(
    dir: string,
    options: { ttlMs: number; limits: FileLimits; maxCells: number; maxBytes: number; log: (message: string) => void },
  ): StateStore {
    const problem = privateDirProblem(dir, true, `--state-dir ${dir}`);
    if (problem) {
      throw new UsageError(
        `Cannot use --state-dir: ${problem}. Whoever can write it can put code into the sessions restored from it; use a directory only this user can write (chmod 700).`,
      );
    }
    return new StateStore(dir, options.ttlMs, options.limits, options.maxCells, options.maxBytes, options.log);
  }

  /** Starts keeping a new session (or one being restored): its directory and meta.json. */
  async create(id: string, createdAt: number, lastUsedAt = createdAt, owner: string | null = null): Promise<void> {
    const dir = this.sessionDir(id);
    await mkdir(join(dir, 'blobs'), { recursive: true, mode: 0o700 });
    await checkDir(dir);
    await this.writeMeta(id, meta(createdAt, lastUsedAt, owner));
  }

  /** Records the last use of a session (its on-disk TTL runs from there). */
  async touch(id: string, createdAt: number, lastUsedAt: number, owner: string | null = null): Promise<void> {
    await this.writeMeta(id, meta(createdAt, lastUsedAt, owner));
  }

  /**
   * Whether a (not expired) session with this id is on disk. Expired ones are deleted on the way. With `owner` (a
   * tenant asking), a session another tenant saved is 'no', expired or not: its existence is not this tenant's to know.
   */
  async has(id: string, now = Date.now(), owner: string | null = null): Promise<'yes' | 'no' | 'expired'> {
    if (!SESSION_ID.test(id)) return 'no';
    const meta = await this.readMeta(id);
    if (!meta) return 'no';
    if (owner !== null && meta.owner !== undefined && meta.owner !== owner) return 'no';
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
      const { log } = await this.logs.read(this.sessionDir(id));
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
    const dir = this.sessionDir(id);
    const { files, skippedFiles } = await this.manifests.load(dir);
    const { log, dropped, unread } = await this.logs.read(dir);
    return {
      id,
      createdAt: meta.created_at,
      lastUsedAt: meta.last_used_at,
      owner: meta.owner ?? null,
      cells: log.length,
      files,
      skippedFiles,
      log,
      dropped,
      unread,
    };
  }

  /** Records a call's change set: the bytes of the files it wrote, and the files it deleted. */
  async applyFiles(id: string, written: StoredFile[], deleted: string[]): Promise<void> {
    await this.manifests.apply(id, this.sessionDir(id), written, deleted);
  }

  /** Appends a cell to the replay log, compacting it to the history bounds now and then. */
  async appendCell(id: string, cell: LoggedCell): Promise<void> {
    await this.logs.append(id, this.sessionDir(id), cell);
  }

  /** Empties the replay log (reset_session: a fresh namespace replays nothing before it). */
  async clearCells(id: string): Promise<void> {
    await this.logs.clear(id, this.sessionDir(id));
  }

  /** Deletes a session's state (close_session, expiry, a session that died). */
  async remove(id: string): Promise<void> {
    if (!SESSION_ID.test(id)) return;
    this.manifests.forget(id);
    this.logs.forget(id);
    await rm(this.sessionDir(id), { recursive: true, force: true, maxRetries: 3 });
  }

  private async readMeta(id: string): Promise<Meta | null> {
    try {
      await checkDir(this.sessionDir(id));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.log(`state of session ${id} ignored: ${(error as Error).message}`);
      return null;
    }
    const data = await readRegular(join(this.sessionDir(id), 'meta.json'), 64 * 1024);
    if (!data) return null;
    try {
      const meta = JSON.parse(Buffer.from(data).toString('utf8')) as Meta;
      if (meta.version !== VERSION || !Number.isFinite(meta.created_at) || !Number.isFinite(meta.last_used_at)) return null;
      if (meta.owner !== undefined && typeof meta.owner !== 'string') return null;
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
}

function meta(createdAt: number, lastUsedAt: number, owner: string | null): Meta {
  const written: Meta = { version: VERSION, created_at: createdAt, last_used_at: lastUsedAt };
  if (owner !== null) written.owner = owner;
  return written;
}
