/**
 * SessionRestorer (--state-dir): brings back a session saved before a restart when a call names its id: boots a
 * session with that id, copies its files back and replays its cells in order (each with its time limit), and says
 * what it did. Concurrent calls with the same id wait for the same restore.
 */
import { NEW_SESSION_HINT, PyodideMcpError } from '../errors.js';
import type { CellRunner } from './cell-runner.js';
import type { Persistence } from './persistence.js';
import { applyChanges, type Session, type SessionRegistry, type SessionSummary } from './registry.js';
import type { StoredSession } from './state-store.js';

/** What a restore did (--state-dir): the reply of the call that caused it says so. */
export interface RestoreReport {
  /** Cells replayed. */
  cells: number;
  /** Numbers (as they ran before the restart) of the replayed cells that raised. */
  failed: number[];
  /** Numbers of the cells not replayed because they were interrupted then (time limit, cancellation). */
  skipped: number[];
  /** Cells older than the history bound (--max-history-cells, --max-history-bytes), no longer kept and so not replayed. */
  dropped: number;
  /**
   * Parts of the saved cell log that could not be read, each with why (a torn or corrupt line, a log too large or
   * unreadable); empty when all of it was read. Cells in them were not replayed.
   */
  unread: string[];
  /** Workspace files copied back. */
  files: number;
  /** Files that could not be copied back (over a file limit, or unreadable). */
  skipped_files: string[];
}

/** What the restorer needs of the manager. */
export interface RestoreHost {
  readonly sessions: SessionRegistry;
  readonly persistence: Persistence;
  readonly runner: CellRunner;
  readonly ttlMs: number;
  readonly log: (message: string) => void;
  /** True once the server is shutting down: nothing more is restored. */
  isClosing(): boolean;
  /** Boots a session with this id, not saved while it is restored (its state on disk is the one to restore). */
  bootForRestore(id: string, createdAt: number, owner: string | null): Promise<Session>;
}

export class SessionRestorer {
  /** Restores in progress, so that concurrent calls with one id wait for the same one. */
  private readonly restoring = new Map<string, Promise<RestoreReport | null>>();

  constructor(private readonly host: RestoreHost) {}

  /** Whether a restore of this id is under way. */
  has(id: string): boolean {
    return this.restoring.has(id);
  }

  /** Live sessions and those being restored: the saved sessions the state directory's sweep must leave alone. */
  inUse(): Set<string> {
    const live = new Set(this.host.sessions.all().map((s) => s.id));
    for (const id of this.restoring.keys()) live.add(id);
    return live;
  }

  /**
   * When `id` is not a live session but is saved, restores it and returns what was done. Null when there was nothing
   * to restore (a live or unknown id: the call then goes on as usual), and for calls that waited for another's restore.
   * `owner`: the tenant asking (null: stdio, the library); a session saved by another tenant is not restored for it.
   */
  async restore(id: string, owner: string | null = null): Promise<RestoreReport | null> {
    if (this.host.isClosing() || this.host.sessions.has(id)) return null;
    const pending = this.restoring.get(id);
    if (pending) {
      await pending;
      return null;
    }
    const restoring = this.fromDisk(id, owner);
    this.restoring.set(id, restoring);
    try {
      return await restoring;
    } finally {
      this.restoring.delete(id);
    }
  }

  /** The saved sessions (before a restart) that a call with their id would restore, as list_sessions shows them. */
  async listRestorable(): Promise<SessionSummary[]> {
    const stored = await this.host.persistence.list(this.inUse());
    return stored
      .filter((s) => !this.host.sessions.has(s.id))
      .map((s) => ({
        session_id: s.id,
        created_at: new Date(s.createdAt).toISOString(),
        last_used_at: new Date(s.lastUsedAt).toISOString(),
        expires_at: new Date(s.lastUsedAt + this.host.ttlMs).toISOString(),
        busy: false,
        execution_count: s.cells,
        restorable: true,
      }));
  }

  private async fromDisk(id: string, owner: string | null): Promise<RestoreReport | null> {
    const { persistence, sessions, log } = this.host;
    const status = await persistence.status(id, owner);
    if (status === 'expired') {
      throw new PyodideMcpError(
        'SESSION_EXPIRED',
        `Session ${id} expired: it was not used for --session-ttl (${this.host.ttlMs / 1000} s), so its saved state was deleted. ${NEW_SESSION_HINT}`,
      );
    }
    if (status !== 'yes') return null;
    // A state directory shared by instances: the session's lease first, so that no two instances run or replay it.
    const holder = await persistence.claim(id);
    if (holder !== null) {
      throw new PyodideMcpError(
        'WRONG_INSTANCE',
        `Session ${JSON.stringify(id)} is running on instance "${holder}" (its lease in --state-dir is current): send the call to instance "${holder}". If that instance has stopped, the session can be restored elsewhere once its lease is stale (--state-lease).`,
      );
    }
    let session: Session;
    let stored: StoredSession | null;
    try {
      stored = await persistence.load(id);
      // Security: another tenant's saved session is, for this caller, a session that does not exist. One saved without
      // an owner (stdio, the library, before tenants) is restored for whoever names its id, as always.
      if (!stored || (owner !== null && stored.owner !== null && stored.owner !== owner)) {
        await persistence.release(id);
        return null;
      }
      log(`restoring session ${id}: ${stored.files.length} files, ${stored.log.length} cells`);
      session = await this.host.bootForRestore(id, stored.createdAt, stored.owner ?? owner);
    } catch (error) {
      await persistence.release(id);
      throw error;
    }
    const saved = stored;
    return session.queue.run(async () => {
      let report: RestoreReport;
      try {
        report = await this.replay(session, saved);
      } catch (error) {
        // A half-restored session is no use: it goes, its state on disk stays for another try (here or elsewhere).
        if (sessions.holds(id, session.channel)) {
          sessions.bury(id, new PyodideMcpError('SESSION_NOT_FOUND', `Session ${id} could not be restored. ${NEW_SESSION_HINT}`));
          await session.channel.end();
        }
        await persistence.release(id);
        throw error instanceof PyodideMcpError && error.code === 'RESTORE_FAILED' ? error : restoreFailed(id, error as Error);
      }
      session.persist = true;
      await persistence.touched(session);
      log(`session ${id} restored: ${report.cells} cells replayed, ${report.failed.length} failed`);
      return report;
    });
  }

  /** Copies a stored session's files into it and replays its cells; the files end as they were stored. */
  private async replay(session: Session, stored: StoredSession): Promise<RestoreReport> {
    const { sessions, runner } = this.host;
    const report: RestoreReport = {
      cells: 0,
      failed: [],
      skipped: [],
      dropped: stored.dropped,
      unread: [...stored.unread],
      files: 0,
      skipped_files: [...stored.skippedFiles],
    };
    const write = async (path: string, data: Uint8Array) => {
      applyChanges(session, await session.channel.request({ type: 'write_file', path, data, append: false, overwrite: true }));
    };
    for (const file of stored.files) {
      try {
        await write(file.path, file.data);
        report.files++;
      } catch (error) {
        if (!sessions.holds(session.id, session.channel)) throw restoreFailed(session.id, error as Error);
        report.skipped_files.push(file.path);
      }
    }
    const touched = new Set<string>();
    for (const cell of stored.log) {
      if (!cell.completed) {
        report.skipped.push(cell.executionCount);
        continue;
      }
      const ran = await runner.run(session, cell.source, cell.timeoutMs);
      if (ran.terminated) throw restoreFailed(session.id, ran.terminated, cell.executionCount);
      report.cells++;
      if (ran.outcome.error || ran.interrupted) report.failed.push(cell.executionCount);
      for (const file of ran.outcome.changes.written) touched.add(file.path);
      for (const path of ran.outcome.changes.deleted) touched.add(path);
    }
    // What the replay wrote is older than what was stored: the workspace ends as it was before the restart.
    const byPath = new Map(stored.files.map((file) => [file.path, file.data]));
    for (const path of touched) {
      const data = byPath.get(path);
      try {
        if (data) await write(path, data);
        else if (session.files.list('', true).some((entry) => entry.path === path && entry.type === 'file'))
          applyChanges(session, await session.channel.request({ type: 'delete_file', path }));
      } catch (error) {
        if (!sessions.holds(session.id, session.channel)) throw restoreFailed(session.id, error as Error);
      }
    }
    return report;
  }
}

function restoreFailed(id: string, cause: Error, cell?: number): PyodideMcpError {
  return new PyodideMcpError(
    'RESTORE_FAILED',
    `Session ${id} could not be restored: ${cell === undefined ? '' : `replaying cell ${cell} ended the session: `}${cause.message} Its saved state is kept (a later call retries the restore); close_session deletes it.`,
  );
}
