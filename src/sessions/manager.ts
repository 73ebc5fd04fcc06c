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
} from '../contract.js';
import { NEW_SESSION_HINT, PyodideMcpError } from '../errors.js';
import { distributionFacts, type Distribution, type DistributionFacts } from '../python/distribution.js';
import type { Config } from '../server/config.js';
import type { CellSource, InterruptReason } from './channel.js';
import { callSource, CellHistory } from './history.js';
import { capOutcome } from '../sandbox/reply-caps.js';
import { SessionFileIndex, type FileRef } from './file-index.js';
import { SessionRegistry, type Session, type SessionSummary } from './registry.js';
import { SessionQueue } from './session-queue.js';
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

export class SessionManager {
  private readonly sessions: SessionRegistry;
  /** Sessions being booted count toward --max-sessions too. */
  private booting = 0;
  private readonly sweepTimer: NodeJS.Timeout;
  private closing = false;
  private readonly pool: WarmPool;
  /** What the distribution offers, from its metadata: known before any session boots. */
  readonly facts: DistributionFacts;

  constructor(
    private readonly config: Config,
    readonly distribution: Distribution,
    private readonly log: (message: string) => void,
  ) {
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
      const id = newSessionId();
      const now = Date.now();
      this.sessions.add({
        id,
        channel,
        files: new SessionFileIndex(id, this.config.fileLimits),
        runtime,
        createdAt: now,
        executionCount: 0,
        queue: new SessionQueue(now),
        history: new CellHistory(this.config.maxHistoryCells),
      });
      // Whatever ends the session (a crash, a broken rule, memory), later calls are told why.
      channel.onDeath((reason) => {
        if (this.sessions.holds(id, channel) && !this.closing) {
          this.sessions.bury(
            id,
            new PyodideMcpError('SESSION_DEAD', `Session ${id} no longer exists: ${reason.message} ${NEW_SESSION_HINT}`),
          );
          this.log(`session ${id} ended: ${reason.message}`);
          this.notifyEnd(id);
        }
      });
      this.log(`session ${id} created (${runtime.kind} runtime, boot ${runtime.bootMs} ms)`);
      if (this.closing) {
        await this.close(id);
        throw new PyodideMcpError('SERVER_CLOSING', 'The server is shutting down.');
      }
      return { id, runtime, expiresAt: now + this.config.sessionTtlMs };
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
    return this.enqueue(id, async (session): Promise<Execution> => {
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
        session.history.add({ source: sourceText(source), outcome, completed: interrupted === null, at: Date.now() });
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
    });
  }

  /** Waits until the session has imported its preload set (or failed to, or `signal` aborts). */
  private async untilPreloaded(session: Session, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return;
    let onAbort = () => {};
    const aborted = new Promise<void>((resolve) => (onAbort = resolve));
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await Promise.race([this.pool.preloaded(session.channel).catch(() => {}), aborted]);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Writes a file into a session's workspace, queued behind running code. */
  writeFile(id: string, path: string, data: Uint8Array, options: { append: boolean; overwrite: boolean }): Promise<FileRef> {
    return this.enqueue(id, async (session) => {
      this.applyChanges(session, await session.channel.request({ type: 'write_file', path, data, ...options }));
      return session.files.ref(path, session.files.sizeOf(path));
    });
  }

  /** Deletes a file (or empty directory) from a session's workspace, queued behind running code. */
  deleteFile(id: string, path: string): Promise<void> {
    return this.enqueue(id, async (session) => {
      this.applyChanges(session, await session.channel.request({ type: 'delete_file', path }));
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
    await this.enqueue(id, (session) => session.channel.request({ type: 'install_wheel', filename, data }));
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

  /** Terminates a session and forgets it. Throws if the session does not exist. */
  async close(id: string): Promise<void> {
    const session = this.find(id);
    this.sessions.bury(id, new PyodideMcpError('SESSION_NOT_FOUND', `Session ${id} was closed. ${NEW_SESSION_HINT}`));
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
      this.notifyEnd(id);
      return { removed: reply.removed, files_deleted: reply.changes.deleted.length };
    });
  }

  /** A session's cell history (export_notebook); answers at once, even while the session runs code. */
  historyOf(id: string): { history: CellHistory; python: string } {
    const session = this.find(id);
    return { history: session.history, python: session.runtime.python };
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
      this.notifyEnd(session.id);
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

  /** Runs `task` on a session after every call queued before it; fails at once for an unknown or gone session. */
  private enqueue<T>(id: string, task: (session: Session) => Promise<T>): Promise<T> {
    const session = this.find(id);
    // When its turn comes the session may have died meanwhile: find() then says why.
    return session.queue.run(() => task(this.find(id)));
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

/** 192 bits from the CSPRNG, base64url: unguessable and safe in URIs. */
function newSessionId(): string {
  return randomBytes(24).toString('base64url');
}
