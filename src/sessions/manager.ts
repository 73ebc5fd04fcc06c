/**
 * SessionManager: the only owner of session handles. Creates sessions (from the warm pool), finds them, runs their
 * calls in order, expires idle ones, enforces --max-sessions, and remembers recently gone sessions so that a late
 * caller is told why a session is gone instead of getting a silent new one.
 */
import { randomBytes } from 'node:crypto';
import {
  emptyOutcome,
  type CellOutcome,
  type FilePage,
  type PackageListing,
  type ReplyOf,
  type RequestOf,
  type RuntimeInfo,
} from '../wire/contract.js';
import { NEW_SESSION_HINT, PyodideMcpError } from '../errors.js';
import { distributionFacts, type Distribution, type DistributionFacts } from '../python/distribution.js';
import type { Config } from '../server/config.js';
import { PACKAGE_OP_FACTOR, type CellSource, type InterruptReason } from './channel.js';
import { callSource, CellHistory } from './history.js';
import { capOutcome } from './reply-caps.js';
import { SessionFileIndex, type FileRef } from './file-index.js';
import { SessionRegistry, type Session, type SessionSummary } from './registry.js';
import { SessionQueue } from './session-queue.js';
import { Slots } from './slots.js';
import { SESSION_ID, StateStore, type LoggedCell, type StoredSession } from './state-store.js';
import { WarmPool } from './warm-pool.js';

/** The outcome of execute(), with how it ended. */
export interface Execution {
  outcome: CellOutcome;
  /** Files the call created or modified. */
  files: FileRef[];
  interrupted: InterruptReason | null;
  /** Set when the session had to be ended: it no longer exists. */
  terminated: PyodideMcpError | null;
  durationMs: number;
}

export type { SessionSummary };

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

/**
 * Exports (export_notebook) running at once, server-wide. Each also runs in its session's turn (one per session).
 * Memory: an export holds its figures as base64 (a lower bound of the notebook's size, checked before any is read,
 * keeps them under --max-file-bytes), the notebook's JSON text (at most --max-file-bytes characters, else it is
 * refused before encoding; its history part is at most 6 × --max-history-bytes, JSON's worst escaping) and its UTF-8
 * bytes: about 3 × --max-file-bytes at its peak, so 2 slots bound exports to about 6 × --max-file-bytes (300 MB with
 * the default 50 MB) whatever the number of clients asking.
 */
const EXPORT_SLOTS = 2;
/**
 * Whole-file reads (download_file) at once, server-wide: each holds up to --max-file-bytes, so without a bound N
 * calls in flight would hold N files.
 */
const WHOLE_READ_SLOTS = 2;

/** What an export may do in its turn: the history holds still, and files are read and written without queueing again. */
export interface ExportTurn {
  history: CellHistory;
  /** The session's Python version. */
  python: string;
  /** A file's size from the server's index (no round trip), or null when it is not a file. */
  sizeOf(path: string): number | null;
  readFile(path: string, length: number): Promise<FilePage>;
  writeFile(path: string, data: Uint8Array, options: { append: boolean; overwrite: boolean }): Promise<FileRef>;
}

export class SessionManager {
  private readonly sessions: SessionRegistry;
  /** Sessions being booted count toward --max-sessions too. */
  private booting = 0;
  private readonly sweepTimer: NodeJS.Timeout;
  private closing = false;
  private readonly pool: WarmPool;
  /** Sessions kept on disk across restarts (--state-dir), or null: then nothing is written to disk. */
  private readonly store: StateStore | null;
  /** Restores in progress, so that concurrent calls with one id wait for the same one. */
  private readonly restoring = new Map<string, Promise<RestoreReport | null>>();
  /** What the distribution offers, from its metadata: known before any session boots. */
  readonly facts: DistributionFacts;
  private readonly exportSlots = new Slots(EXPORT_SLOTS);
  private readonly wholeReads = new Slots(WHOLE_READ_SLOTS);

  constructor(
    private readonly config: Config,
    readonly distribution: Distribution,
    private readonly log: (message: string) => void,
  ) {
    // Once per server: a default lowered to fit the memory budget, with the arithmetic (src/sessions/memory-budget.ts).
    if (config.memoryBudget.note) log(config.memoryBudget.note);
    // First: a state directory that cannot be trusted stops the server before anything boots.
    this.store = config.stateDir
      ? StateStore.open(config.stateDir, {
          ttlMs: config.sessionTtlMs,
          limits: config.fileLimits,
          maxCells: config.maxHistoryCells,
          maxBytes: config.maxHistoryBytes,
          log,
        })
      : null;
    void this.store?.sweep(new Set()).catch((error: Error) => log(`state sweep failed: ${error.message}`));
    const every = Math.min(Math.max(config.sessionTtlMs / 4, 250), 60_000);
    this.sweepTimer = setInterval(() => this.sweep(), every);
    // The sweep must never keep the process alive on its own.
    this.sweepTimer.unref();
    this.sessions = new SessionRegistry(config.sessionTtlMs);
    this.facts = distributionFacts(distribution, config.preload);
    this.pool = new WarmPool(config, distribution, log, () => this.sessions.size + this.booting);
  }

  /** Boots a new session (or takes a warm one) and returns it once its runtime is ready. */
  async create(): Promise<{ id: string; runtime: RuntimeInfo; expiresAt: number }> {
    const session = await this.boot(newSessionId(), Date.now(), true);
    return { id: session.id, runtime: session.runtime, expiresAt: session.queue.lastUsedAt + this.config.sessionTtlMs };
  }

  /**
   * Boots a session with this id; `persist` false while it is being restored (its state on disk is the one to
   * restore, not yet what the session holds).
   */
  private async boot(id: string, createdAt: number, persist: boolean): Promise<Session> {
    if (this.closing) throw new PyodideMcpError('SERVER_CLOSING', 'The server is shutting down.');
    if (this.sessions.size + this.booting >= this.config.maxSessions) {
      throw new PyodideMcpError(
        'SESSION_LIMIT',
        `The server already holds ${this.config.maxSessions} sessions (--max-sessions). Close one with close_session (list_sessions shows them), or wait for an idle one to expire.`,
      );
    }
    this.booting++;
    try {
      const channel = this.pool.take();
      let runtime: RuntimeInfo;
      try {
        runtime = await channel.ready;
      } catch (error) {
        await channel.terminate();
        throw error;
      }
      const now = Date.now();
      const session: Session = {
        id,
        channel,
        files: new SessionFileIndex(id, this.config.fileLimits),
        runtime,
        createdAt,
        executionCount: 0,
        queue: new SessionQueue(now, this.config.queue),
        history: new CellHistory(this.config.maxHistoryCells, this.config.maxHistoryBytes),
        persist,
      };
      this.sessions.add(session);
      // Whatever ends the session (a crash, a broken rule, memory), later calls are told why.
      channel.onDeath((reason) => {
        if (this.sessions.holds(id, channel) && !this.closing) {
          this.sessions.bury(
            id,
            new PyodideMcpError('SESSION_DEAD', `Session ${id} no longer exists: ${reason.message} ${NEW_SESSION_HINT}`),
          );
          this.log(`session ${id} ended: ${reason.message}`);
          // A session that died is gone, on disk too; one that died being restored keeps its state (the restore says so).
          if (session.persist) void this.forget(id);
          this.notifyEnd(id);
        }
      });
      this.log(`session ${id} ${persist ? 'created' : 'booted for a restore'} (${runtime.kind} runtime, boot ${runtime.bootMs} ms)`);
      if (persist) await this.saving(session, () => this.store!.create(id, createdAt));
      if (this.closing) {
        if (persist) await this.close(id);
        else {
          this.sessions.bury(id, new PyodideMcpError('SERVER_CLOSING', 'The server is shutting down.'));
          await channel.terminate();
        }
        throw new PyodideMcpError('SERVER_CLOSING', 'The server is shutting down.');
      }
      return session;
    } finally {
      this.booting--;
    }
  }

  /**
   * Resolves to {module: version} once the session has imported the preload set in the background ({} when there
   * is none); rejects if it could not (what is missing is then imported on first use).
   */
  preloaded(id: string): Promise<Record<string, string>> {
    return this.pool.preloaded(this.find(id).channel);
  }

  /** Warm sessions ready to be taken, for server_info. */
  get warmReady(): number {
    return this.pool.readyCount;
  }

  /** Warm sessions ready to be taken that have imported the preload set too, for server_info. */
  get warmPreloaded(): number {
    return this.pool.preloadedCount;
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Packages loaded in a session, and those it could load offline. */
  listPackages(id: string): Promise<PackageListing> {
    return this.enqueue(id, (session) => session.channel.request({ type: 'list_packages' }));
  }

  /** Runs code in a session, after the calls queued before it; other sessions are unaffected. */
  execute(id: string, source: CellSource, timeoutMs: number, signal?: AbortSignal): Promise<Execution> {
    return this.enqueue(id, (session) => this.runCell(session, source, timeoutMs, signal), sourceBytes(source));
  }

  /** Runs one cell in a session whose turn it is (execute, and replays during a restore). */
  private async runCell(session: Session, source: CellSource, timeoutMs: number, signal?: AbortSignal): Promise<Execution> {
    const started = performance.now();
    try {
      // The preload set is imported in the background (PreloadScheduler). A cell that may import waits for it
      // first, outside its time limit: importing the stack (10-12 s of CPU here) is not the cell's time.
      if (!('code' in source) || /\bimport\b|__import__/.test(source.code)) await this.untilPreloaded(session, signal);
      const ran = await session.channel.execute({ source, limits: this.config.limits, timeoutMs, signal });
      // Security: the harness's own caps run in the user's realm; the host applies them again.
      const outcome = capOutcome(ran.outcome, this.config.limits);
      const { interrupted } = ran;
      session.executionCount = outcome.execution_count;
      const files = this.applyChanges(session, outcome.changes);
      const at = Date.now();
      session.history.add({ source: sourceText(source), outcome, completed: interrupted === null, at });
      await this.saveChanges(session, outcome.changes);
      const cell: LoggedCell = { source, timeoutMs, completed: interrupted === null, executionCount: outcome.execution_count, at };
      await this.saving(session, () => this.store!.appendCell(session.id, cell));
      return { outcome, files, interrupted, terminated: null, durationMs: performance.now() - started };
    } catch (error) {
      if (!(error instanceof PyodideMcpError) || !['EXEC_TIMEOUT', 'EXEC_CANCELLED', 'WORKER_CRASHED'].includes(error.code)) throw error;
      // The session is gone (its channel's death buried it); this call reports how it ended.
      await session.channel.terminate(error);
      return {
        outcome: emptyOutcome(session.executionCount + 1),
        files: [],
        interrupted: null,
        terminated: error,
        durationMs: performance.now() - started,
      };
    }
  }

  /**
   * Waits until the session has imported its preload set (or failed to, or `signal` aborts, or a package load's
   * deadline passes: the cell then goes on, and imports what it needs within its own time limit).
   */
  private async untilPreloaded(session: Session, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return;
    let onAbort = () => {};
    const aborted = new Promise<void>((resolve) => (onAbort = resolve));
    signal?.addEventListener('abort', onAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.config.opTimeoutMs * PACKAGE_OP_FACTOR)));
    timer?.unref();
    try {
      await Promise.race([this.pool.preloaded(session.channel).catch(() => {}), aborted, late]);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Writes a file into a session's workspace, queued behind running code. */
  writeFile(id: string, path: string, data: Uint8Array, options: { append: boolean; overwrite: boolean }): Promise<FileRef> {
    return this.enqueue(id, (session) => this.writeNow(session, path, data, options), path.length + data.byteLength);
  }

  /** Writes a file in a call whose turn it is. */
  private async writeNow(
    session: Session,
    path: string,
    data: Uint8Array,
    options: { append: boolean; overwrite: boolean },
  ): Promise<FileRef> {
    const changes = await session.channel.request({ type: 'write_file', path, data, ...options });
    this.applyChanges(session, changes);
    await this.saveChanges(session, changes);
    return session.files.ref(path, session.files.sizeOf(path));
  }

  /** Deletes a file (or empty directory) from a session's workspace, queued behind running code. */
  deleteFile(id: string, path: string): Promise<void> {
    return this.enqueue(id, async (session) => {
      const changes = await session.channel.request({ type: 'delete_file', path });
      this.applyChanges(session, changes);
      await this.saveChanges(session, changes);
    });
  }

  /**
   * Reads up to `length` bytes of a session file from `offset`. Not queued: the session's supervisor answers from
   * its copy of the files even while the session runs code (the files as of the end of the last call).
   */
  async readFile(id: string, path: string, offset = 0, length = Number.MAX_SAFE_INTEGER): Promise<FilePage> {
    const session = this.find(id);
    session.files.sizeOf(path); // FILE_NOT_FOUND / NOT_A_FILE from the index, without a round trip
    return session.channel.request({ type: 'read_file', path, offset, length: Math.min(length, this.config.fileLimits.maxFileBytes) });
  }

  /** Reads a whole session file and hands it to `use`, in one of WHOLE_READ_SLOTS server-wide slots. */
  readWhole<T>(id: string, path: string, use: (data: Uint8Array) => Promise<T>): Promise<T> {
    return this.wholeReads.run(async () => use((await this.readFile(id, path)).data));
  }

  /** The server's view of a session's files: answers at once, even while the session runs code. */
  filesOf(id: string): SessionFileIndex {
    return this.find(id).files;
  }

  /** Every file of every live session, for resources/list. */
  allFiles(): FileRef[] {
    return this.sessions.all().flatMap((session) => session.files.allFiles());
  }

  /** Installs a fetched pure-Python wheel into a session, queued like a cell. */
  async installWheel(id: string, filename: string, data: Uint8Array): Promise<void> {
    await this.enqueue(id, (session) => session.channel.request({ type: 'install_wheel', filename, data }), data.byteLength);
  }

  /** Loads offline packages into a session, queued like a cell. */
  async loadPackages(id: string, packages: string[]): Promise<void> {
    await this.enqueue(id, (session) => session.channel.request({ type: 'load_packages', packages }));
  }

  /** A live session's runtime and summary, for the library's session handles; throws why a session is gone. */
  describe(id: string): { runtime: RuntimeInfo; summary: SessionSummary } {
    const session = this.find(id);
    return { runtime: session.runtime, summary: this.sessions.summary(session) };
  }

  list(): SessionSummary[] {
    return this.sessions.all().map((s) => this.sessions.summary(s));
  }

  /** With --state-dir, the sessions on disk (saved before a restart) that a call with their id would restore. */
  async listRestorable(): Promise<SessionSummary[]> {
    if (!this.store) return [];
    const live = new Set(this.sessions.all().map((s) => s.id));
    for (const id of this.restoring.keys()) live.add(id);
    const stored = await this.store.list(live);
    return [
      ...stored
        .filter((s) => !this.sessions.has(s.id))
        .map((s) => ({
          session_id: s.id,
          created_at: new Date(s.createdAt).toISOString(),
          last_used_at: new Date(s.lastUsedAt).toISOString(),
          expires_at: new Date(s.lastUsedAt + this.config.sessionTtlMs).toISOString(),
          busy: false,
          execution_count: s.cells,
          restorable: true,
        })),
    ];
  }

  /**
   * With --state-dir: when `id` is not a live session but is kept on disk (from before a restart), boots a session
   * with that id, copies its files back and replays its cells in order (each with its time limit), then returns what
   * was done. Null when there was nothing to restore (a live or unknown id: the call then goes on as usual). Calls
   * with the same id meanwhile wait for this restore.
   */
  async restore(id: string): Promise<RestoreReport | null> {
    if (!this.store || this.closing || !SESSION_ID.test(id) || this.sessions.has(id)) return null;
    const pending = this.restoring.get(id);
    if (pending) {
      await pending;
      return null;
    }
    const restoring = this.restoreFromDisk(this.store, id);
    this.restoring.set(id, restoring);
    try {
      return await restoring;
    } finally {
      this.restoring.delete(id);
    }
  }

  private async restoreFromDisk(store: StateStore, id: string): Promise<RestoreReport | null> {
    const status = await store.has(id);
    if (status === 'expired') {
      throw new PyodideMcpError(
        'SESSION_EXPIRED',
        `Session ${id} expired: it was not used for --session-ttl (${this.config.sessionTtlMs / 1000} s), so its saved state was deleted. ${NEW_SESSION_HINT}`,
      );
    }
    const stored = status === 'yes' ? await store.load(id) : null;
    if (!stored) return null;
    this.log(`restoring session ${id}: ${stored.files.length} files, ${stored.log.length} cells`);
    const session = await this.boot(id, stored.createdAt, false);
    return session.queue.run(async () => {
      let report: RestoreReport;
      try {
        report = await this.replay(session, stored);
      } catch (error) {
        // A half-restored session is no use: it goes, its state on disk stays for another try.
        if (this.sessions.holds(id, session.channel)) {
          this.sessions.bury(id, new PyodideMcpError('SESSION_NOT_FOUND', `Session ${id} could not be restored. ${NEW_SESSION_HINT}`));
          await session.channel.terminate();
        }
        throw error instanceof PyodideMcpError && error.code === 'RESTORE_FAILED' ? error : this.restoreFailed(id, error as Error);
      }
      session.persist = true;
      await this.saving(session, () => store.touch(id, session.createdAt, Date.now()));
      this.log(`session ${id} restored: ${report.cells} cells replayed, ${report.failed.length} failed`);
      return report;
    });
  }

  /** Copies a stored session's files into it and replays its cells; the files end as they were stored. */
  private async replay(session: Session, stored: StoredSession): Promise<RestoreReport> {
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
      this.applyChanges(session, await session.channel.request({ type: 'write_file', path, data, append: false, overwrite: true }));
    };
    for (const file of stored.files) {
      try {
        await write(file.path, file.data);
        report.files++;
      } catch (error) {
        if (!this.sessions.holds(session.id, session.channel)) throw this.restoreFailed(session.id, error as Error);
        report.skipped_files.push(file.path);
      }
    }
    const touched = new Set<string>();
    for (const cell of stored.log) {
      if (!cell.completed) {
        report.skipped.push(cell.executionCount);
        continue;
      }
      const ran = await this.runCell(session, cell.source, cell.timeoutMs);
      if (ran.terminated) throw this.restoreFailed(session.id, ran.terminated, cell.executionCount);
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
          this.applyChanges(session, await session.channel.request({ type: 'delete_file', path }));
      } catch (error) {
        if (!this.sessions.holds(session.id, session.channel)) throw this.restoreFailed(session.id, error as Error);
      }
    }
    return report;
  }

  private restoreFailed(id: string, cause: Error, cell?: number): PyodideMcpError {
    return new PyodideMcpError(
      'RESTORE_FAILED',
      `Session ${id} could not be restored: ${cell === undefined ? '' : `replaying cell ${cell} ended the session: `}${cause.message} Its saved state is kept (a later call retries the restore); close_session deletes it.`,
    );
  }

  /**
   * Terminates a session and forgets it, deleting its saved state (--state-dir). A session that is only on disk
   * (not restored since a restart) is deleted without being restored. Throws if the session does not exist.
   */
  async close(id: string): Promise<void> {
    if (this.store && !this.sessions.has(id) && SESSION_ID.test(id) && !this.restoring.has(id) && (await this.store.has(id)) === 'yes') {
      await this.store.remove(id);
      this.sessions.bury(id, new PyodideMcpError('SESSION_NOT_FOUND', `Session ${id} was closed. ${NEW_SESSION_HINT}`));
      this.log(`stored session ${id} deleted`);
      return;
    }
    const session = this.find(id);
    this.sessions.bury(id, new PyodideMcpError('SESSION_NOT_FOUND', `Session ${id} was closed. ${NEW_SESSION_HINT}`));
    // Deleted before the reply: a close_session that returned leaves nothing on disk.
    await this.forget(id);
    await session.channel.terminate(new PyodideMcpError('SESSION_NOT_FOUND', `Session ${id} was closed while this call was running.`));
    this.log(`session ${id} closed`);
    this.notifyEnd(id);
  }

  /**
   * A namespace request (list_variables, inspect_variable, remove_variables), queued like a cell and bound by the
   * default time limit: it runs user code (a __repr__, a property) that may loop.
   */
  namespace<K extends 'list_variables' | 'inspect_variable' | 'remove_variables'>(
    id: string,
    body: RequestOf<K> & { type: K },
    signal?: AbortSignal,
  ): Promise<ReplyOf<K>> {
    return this.enqueue(id, (session) => session.channel.requestWithin<K>(body, { timeoutMs: this.config.defaultTimeoutMs, signal }));
  }

  /**
   * A fresh namespace in the same session, as after a kernel restart: user names removed, execution count and cell
   * history started again, files kept unless `clearFiles`. Returns how many names were removed.
   */
  reset(id: string, clearFiles: boolean): Promise<{ removed: number; files_deleted: number }> {
    return this.enqueue(id, async (session) => {
      const reply = await session.channel.requestWithin(
        { type: 'reset', clear_files: clearFiles },
        { timeoutMs: this.config.defaultTimeoutMs },
      );
      this.applyChanges(session, reply.changes);
      session.executionCount = 0;
      session.history.clear();
      await this.saveChanges(session, reply.changes);
      await this.saving(session, () => this.store!.clearCells(id));
      this.notifyEnd(id);
      return { removed: reply.removed, files_deleted: reply.changes.deleted.length };
    });
  }

  /**
   * Runs an export (export_notebook) in the session's turn, after the calls queued before it (so its history holds
   * still), and in one of EXPORT_SLOTS server-wide slots (so exports at once cannot multiply the server's memory).
   */
  exportTurn<T>(id: string, task: (turn: ExportTurn) => Promise<T>): Promise<T> {
    return this.enqueue(id, (session) =>
      this.exportSlots.run(() =>
        task({
          history: session.history,
          python: session.runtime.python,
          sizeOf: (path) => {
            try {
              return session.files.sizeOf(path);
            } catch {
              return null;
            }
          },
          readFile: (path, length) =>
            session.channel.request({ type: 'read_file', path, offset: 0, length: Math.min(length, this.config.fileLimits.maxFileBytes) }),
          writeFile: (path, data, options) => this.writeNow(session, path, data, options),
        }),
      ),
    );
  }

  /**
   * Calls `listener` with the id of every session whose namespace goes from now on: the session ended (closed,
   * expired, dead; not at shutdown) or was reset. What was published from the namespace (register_tool) goes with it.
   */
  onNamespaceGone(listener: (id: string) => void): () => void {
    this.endListeners.push(listener);
    // Over HTTP a server (and its listener) lives as long as one client: it must be able to leave.
    return () => {
      const at = this.endListeners.indexOf(listener);
      if (at !== -1) this.endListeners.splice(at, 1);
    };
  }

  private readonly endListeners: ((id: string) => void)[] = [];

  private notifyEnd(id: string): void {
    for (const listener of this.endListeners) {
      try {
        listener(id);
      } catch (error) {
        this.log(`session end listener failed: ${(error as Error).message}`);
      }
    }
  }

  /** Closes sessions idle for longer than the TTL. Busy sessions are never expired mid-call. */
  sweep(now = Date.now()): void {
    for (const [session, reason] of this.sessions.expired(now)) {
      this.sessions.bury(session.id, reason);
      void session.channel.terminate();
      this.log(`session ${session.id} expired`);
      void this.forget(session.id);
      this.notifyEnd(session.id);
    }
    if (this.store && !this.closing) {
      const live = new Set(this.sessions.all().map((s) => s.id));
      for (const id of this.restoring.keys()) live.add(id);
      void this.store.sweep(live, now).catch((error: Error) => this.log(`state sweep failed: ${error.message}`));
    }
  }

  /** Terminates every session; later calls fail with SERVER_CLOSING. */
  async closeAll(): Promise<void> {
    this.closing = true;
    clearInterval(this.sweepTimer);
    const closing = new PyodideMcpError('SERVER_CLOSING', 'The server is shutting down.');
    const channels = this.sessions.clear().map((s) => s.channel);
    await Promise.all([...channels.map((channel) => channel.terminate(closing)), this.pool.close(closing)]);
  }

  /**
   * Runs `task` on a session after every call queued before it; fails at once for an unknown or gone session, or
   * with QUEUE_FULL when the session's queue is at its bound. `bytes`: what the call holds (code, file data).
   */
  private enqueue<T>(id: string, task: (session: Session) => Promise<T>, bytes = 0): Promise<T> {
    const session = this.find(id);
    // When its turn comes the session may have died meanwhile: find() then says why.
    return session.queue.run(async () => {
      const current = this.find(id);
      try {
        return await task(current);
      } finally {
        // The TTL on disk runs from the last call, as in memory.
        await this.saving(current, () => this.store!.touch(id, current.createdAt, Date.now()));
      }
    }, bytes);
  }

  /**
   * Runs a write to the state directory for a session that is kept there (--state-dir, not being restored). A failed
   * write is logged, never the call's failure: the session itself is fine.
   */
  private async saving(session: Session, write: () => Promise<void>): Promise<void> {
    if (!this.store || !session.persist || !this.sessions.holds(session.id, session.channel)) return;
    try {
      await write();
    } catch (error) {
      this.log(`session ${session.id}: state not saved: ${(error as Error).message}`);
    }
  }

  /** Saves a change set: the bytes of the written files (read from the session's copy) and the deletions. */
  private async saveChanges(session: Session, changes: CellOutcome['changes']): Promise<void> {
    if (changes.written.length === 0 && changes.deleted.length === 0) return;
    await this.saving(session, async () => {
      const written = [];
      for (const file of changes.written) {
        const page = await session.channel.request({
          type: 'read_file',
          path: file.path,
          offset: 0,
          length: this.config.fileLimits.maxFileBytes,
        });
        written.push({ path: file.path, data: page.data });
      }
      await this.store!.applyFiles(session.id, written, changes.deleted);
    });
  }

  /** Deletes a session's saved state (closed, expired, dead); shutdown keeps it. */
  private async forget(id: string): Promise<void> {
    await this.store?.remove(id).catch((error: Error) => this.log(`session ${id}: saved state not deleted: ${error.message}`));
  }

  private applyChanges(session: Session, changes: CellOutcome['changes']): FileRef[] {
    try {
      return session.files.apply(changes);
    } catch (error) {
      session.channel.kill(`went over its file limits (${(error as Error).message})`);
      throw error;
    }
  }

  /** A live session, or an error that says why there is none. No side effects: expiry is the sweep's job. */
  private find(id: string): Session {
    return this.sessions.find(id);
  }
}

/** How a cell's source reads in the history (and an exported notebook). */
function sourceText(source: CellSource): string {
  if ('code' in source) return source.code;
  if ('path' in source) return `%run -i ${source.path}`;
  return callSource(source.call);
}

/** What a queued cell holds, for the queue's byte bound (--max-queued-bytes). */
function sourceBytes(source: CellSource): number {
  if ('code' in source) return source.code.length;
  if ('path' in source) return source.path.length;
  return JSON.stringify(source.call).length;
}

/** 192 bits from the CSPRNG, base64url: unguessable and safe in URIs. */
function newSessionId(): string {
  return randomBytes(24).toString('base64url');
}
