/**
 * SessionManager: the only owner of session handles. Boots sessions (from the warm pool), finds them, runs their
 * calls in order, closes them, expires idle ones, enforces --max-sessions, and remembers recently gone sessions so
 * that a late caller is told why a session is gone instead of getting a silent new one. A call naming a session
 * saved before a restart (--state-dir) restores it first (src/sessions/restorer.ts).
 */
import type { PreloadReport, RuntimeInfo } from '../wire/contract.js';
import { NEW_SESSION_HINT, PyodideMcpError } from '../errors.js';
import { distributionFacts, type Distribution, type DistributionFacts } from '../python/distribution.js';
import type { Config } from '../server/config.js';
import type { CellSource } from './channel.js';
import { CellRunner, sourceBytes, type CellRun } from './cell-runner.js';
import type { ExportTurn } from './export-turn.js';
import { SessionFileIndex, type FileRef } from './file-index.js';
import { CellHistory } from './history.js';
import { rssOf } from './memory-watchdog.js';
import { NamespaceEvents } from './namespace-events.js';
import { NoPersistence, StatePersistence, type Persistence } from './persistence.js';
import { SessionRegistry, type Session, type SessionSummary } from './registry.js';
import { SessionRestorer, type RestoreReport } from './restorer.js';
import { SessionOps } from './session-ops.js';
import { SessionQueue } from './session-queue.js';
import { foreignInstanceError, newSessionId } from './session-id.js';
import { ViewEvents } from './view-events.js';
import { WarmPool } from './warm-pool.js';

export type { CellRun, ExportTurn, RestoreReport, SessionSummary };

export class SessionManager extends SessionOps {
  protected readonly sessions: SessionRegistry;
  /** Sessions being booted count toward --max-sessions too. */
  private booting = 0;
  private readonly sweepTimer: NodeJS.Timeout;
  /** Renews the leases of this process's sessions in a shared --state-dir (none without leases). */
  private readonly leaseTimer: NodeJS.Timeout | null;
  /** A lease renewal round is under way (renewLeases()). */
  private renewing = false;
  private closing = false;
  /** Set by drain(): no new session is booted (nor a saved one restored); the live ones run on. */
  private draining = false;
  /** Latched once the warm pool has had a session ready (or has none to boot): /healthz's "ready". */
  private poolUp = false;
  private readonly pool: WarmPool;
  /** Where sessions are saved as they change (--state-dir), or nowhere. */
  protected readonly persistence: Persistence;
  private readonly runner: CellRunner;
  private readonly restorer: SessionRestorer;
  protected readonly namespaceEvents: NamespaceEvents;
  /** Each session's life as the browser view shows it (src/view/), bounded like the cell history. */
  readonly viewEvents: ViewEvents;
  /** What the distribution offers, from its metadata: known before any session boots. */
  readonly facts: DistributionFacts;

  constructor(
    protected readonly config: Config,
    readonly distribution: Distribution,
    private readonly log: (message: string) => void,
  ) {
    super();
    // Once per server: a default lowered to fit the memory budget, with the arithmetic (src/sessions/memory-budget.ts).
    if (config.memoryBudget.note) log(config.memoryBudget.note);
    this.sessions = new SessionRegistry(config.sessionTtlMs);
    // First: a state directory that cannot be trusted stops the server before anything boots.
    this.persistence = config.stateDir
      ? new StatePersistence(config, (session) => this.sessions.holds(session.id, session.channel), log)
      : new NoPersistence();
    const every = Math.min(Math.max(config.sessionTtlMs / 4, 250), 60_000);
    this.sweepTimer = setInterval(() => this.sweep(), every);
    // The sweep must never keep the process alive on its own.
    this.sweepTimer.unref();
    this.leaseTimer = this.persistence.leased ? setInterval(() => void this.renewLeases(), config.stateLeaseMs / 3) : null;
    this.leaseTimer?.unref();
    this.facts = distributionFacts(distribution, config.preload);
    this.pool = new WarmPool(config, distribution, log, () => this.sessions.size + this.booting);
    this.namespaceEvents = new NamespaceEvents(log);
    this.viewEvents = new ViewEvents(config.maxHistoryCells, config.maxHistoryBytes);
    this.runner = new CellRunner(config, (session) => this.pool.preloaded(session.channel), this.persistence, this.viewEvents);
    this.restorer = new SessionRestorer({
      sessions: this.sessions,
      persistence: this.persistence,
      runner: this.runner,
      ttlMs: config.sessionTtlMs,
      log,
      isClosing: () => this.closing,
      bootForRestore: (id, createdAt, owner) => this.boot(id, createdAt, false, owner),
    });
  }

  /**
   * Boots a new session (or takes a warm one) and returns it once its runtime is ready, with what its background
   * preload did when it is done already (a warm session preloaded before it was taken), else null. `owner`: the
   * tenant creating it (HTTP), saved with it so that only that tenant restores it after a restart.
   */
  async create(
    owner: string | null = null,
  ): Promise<{ id: string; runtime: RuntimeInfo; expiresAt: number; preload: PreloadReport | null }> {
    // An agent waits on it (a boot, when the pool has no session ready): background work is held meanwhile.
    const session = await this.pool.foreground(() => this.boot(newSessionId(this.instanceId), Date.now(), true, owner));
    return {
      id: session.id,
      runtime: session.runtime,
      expiresAt: session.queue.lastUsedAt + this.config.sessionTtlMs,
      preload: this.pool.preloadReport(session.channel),
    };
  }

  /**
   * Boots a session with this id; `persist` false while it is being restored (its state on disk is the one to
   * restore, not yet what the session holds).
   */
  private async boot(id: string, createdAt: number, persist: boolean, owner: string | null): Promise<Session> {
    if (this.closing) throw new PyodideMcpError('SERVER_CLOSING', 'The server is shutting down.');
    if (this.draining) {
      throw new PyodideMcpError(
        'SERVER_CLOSING',
        'This server is draining (shutting down): it takes no new session. Retry: a proxy in front of several servers sends the call to another one.',
      );
    }
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
        await channel.end();
        throw error;
      }
      const session: Session = {
        id,
        channel,
        files: new SessionFileIndex(id, this.config.fileLimits),
        runtime,
        createdAt,
        owner,
        executionCount: 0,
        queue: new SessionQueue(Date.now(), this.config.queue),
        history: new CellHistory(this.config.maxHistoryCells, this.config.maxHistoryBytes),
        persist,
        restoreReport: null,
      };
      this.sessions.add(session);
      this.viewEvents.created(id, owner, !persist);
      // Whatever ends the session (a crash, a broken rule, memory), later calls are told why.
      channel.onEnd((reason) => {
        if (this.sessions.holds(id, channel) && !this.closing) {
          this.sessions.bury(
            id,
            new PyodideMcpError('SESSION_DEAD', `Session ${id} no longer exists: ${reason.message} ${NEW_SESSION_HINT}`),
          );
          this.log(`session ${id} ended: ${reason.message}`);
          // A session that died is gone, on disk too; one that died being restored keeps its state (the restore says so).
          if (session.persist) void this.persistence.forget(id);
          this.namespaceEvents.gone(id);
          this.viewEvents.ended(id, 'ended', reason.message);
        }
      });
      this.log(`session ${id} ${persist ? 'created' : 'booted for a restore'} (${runtime.kind} runtime, boot ${runtime.bootMs} ms)`);
      if (persist) await this.persistence.created(session);
      if (this.closing) {
        if (persist) await this.close(id);
        else {
          this.sessions.bury(id, new PyodideMcpError('SERVER_CLOSING', 'The server is shutting down.'));
          await channel.end();
        }
        throw new PyodideMcpError('SERVER_CLOSING', 'The server is shutting down.');
      }
      return session;
    } finally {
      this.booting--;
    }
  }

  /**
   * Resolves to what the session's background preload imported ({module: version}) and what failed, with why, once
   * it is done (nothing when there is no preload); rejects if it could not run (the session ended).
   */
  preloaded(id: string): Promise<PreloadReport> {
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

  /** Runs code in a session, after the calls queued before it; other sessions are unaffected. */
  execute(id: string, source: CellSource, timeoutMs: number, signal?: AbortSignal): Promise<CellRun> {
    return this.enqueue(id, (session) => this.runner.run(session, source, timeoutMs, signal), sourceBytes(source));
  }

  /** Every file of every live session (or of those `of` accepts), for resources/list. */
  allFiles(of: (id: string) => boolean = () => true): FileRef[] {
    return this.sessions
      .all()
      .filter((session) => of(session.id))
      .flatMap((session) => session.files.allFiles());
  }

  /** A live session's runtime and summary, for the library's session handles; throws why a session is gone. */
  describe(id: string): { runtime: RuntimeInfo; summary: SessionSummary } {
    const session = this.find(id);
    return { runtime: session.runtime, summary: this.sessions.summary(session) };
  }

  /**
   * A live session process's resident memory in bytes, for the browser view; null with thread isolation, without
   * /proc, or for a session that is gone.
   */
  memoryOf(id: string): number | null {
    const pid = this.sessions.get(id)?.channel.pid ?? null;
    return pid === null ? null : rssOf(pid);
  }

  /** Every live session, as list_sessions shows them. */
  list(): SessionSummary[] {
    return this.sessions.all().map((s) => this.sessions.summary(s));
  }

  /** With --state-dir, the sessions on disk (saved before a restart) that a call with their id would restore. */
  listRestorable(): Promise<SessionSummary[]> {
    return this.restorer.listRestorable();
  }

  /**
   * With --state-dir: when `id` is not a live session but is saved (from before a restart), restores it. Every call
   * naming a session does this first; it resolves true when this call restored it, false for a live or unknown id
   * (the call then goes on as usual). What the restore did waits for takeRestoreReport(). `owner`: the tenant asking
   * (HTTP); a session another tenant saved stays on disk, unknown to this one.
   */
  async restore(id: string, owner: string | null = null): Promise<boolean> {
    // Another instance's id: with a shared, leased state directory it is restored here if saved and its lease is free
    // or stale (its instance stopped); otherwise the caller is told where it belongs.
    const foreign = this.sessions.has(id) || this.restorer.has(id) ? null : foreignInstanceError(id, this.config.instanceId);
    if (foreign && !this.persistence.leased) throw foreign;
    const report = await this.pool.foreground(() => this.restorer.restore(id, owner));
    const session = this.sessions.get(id);
    if (foreign && !session) throw foreign;
    if (!report || !session) return false;
    session.restoreReport = report;
    return true;
  }

  /** What the restore of a live session did, once: the first reply after it says so; null when there is nothing to say. */
  takeRestoreReport(id: string): RestoreReport | null {
    const session = this.sessions.get(id);
    if (!session) return null;
    const report = session.restoreReport;
    session.restoreReport = null;
    return report;
  }

  /**
   * Ends a session and forgets it, deleting its saved state (--state-dir). A session that is only on disk
   * (not restored since a restart) is deleted without being restored. Throws if the session does not exist.
   */
  async close(id: string): Promise<void> {
    this.route(id);
    if (!this.sessions.has(id) && !this.restorer.has(id) && (await this.persistence.status(id)) === 'yes') {
      await this.persistence.forget(id);
      this.sessions.bury(id, new PyodideMcpError('SESSION_NOT_FOUND', `Session ${id} was closed. ${NEW_SESSION_HINT}`));
      this.log(`stored session ${id} deleted`);
      return;
    }
    const session = this.find(id);
    this.sessions.bury(id, new PyodideMcpError('SESSION_NOT_FOUND', `Session ${id} was closed. ${NEW_SESSION_HINT}`));
    // Deleted before the reply: a close_session that returned leaves nothing on disk.
    await this.persistence.forget(id);
    await session.channel.end(new PyodideMcpError('SESSION_NOT_FOUND', `Session ${id} was closed while this call was running.`));
    this.log(`session ${id} closed`);
    this.namespaceEvents.gone(id);
    this.viewEvents.ended(id, 'closed');
  }

  /**
   * Calls `listener` with the id of every session whose namespace goes from now on: the session ended (closed,
   * expired, dead; not at shutdown) or was reset. What was published from the namespace (register_tool) goes with it.
   */
  onNamespaceGone(listener: (id: string) => void): () => void {
    return this.namespaceEvents.on(listener);
  }

  /** Closes sessions idle for longer than the TTL. Busy sessions are never expired mid-call. */
  sweep(now = Date.now()): void {
    for (const [session, reason] of this.sessions.expired(now)) {
      this.sessions.bury(session.id, reason);
      void session.channel.end();
      this.log(`session ${session.id} expired`);
      void this.persistence.forget(session.id);
      this.namespaceEvents.gone(session.id);
      this.viewEvents.ended(session.id, 'expired');
    }
    // The state store's sweep is background work: not while a call an agent waits on runs (it comes again).
    if (!this.closing && this.pool.backgroundMayRun) this.persistence.sweep(this.restorer.inUse(), now);
  }

  /**
   * Whether the server can take sessions (/healthz): once its warm pool has had a session ready, or at once without
   * a warm pool. Latched: a pool emptied by a burst of new sessions refills, and the server stays ready meanwhile.
   */
  get ready(): boolean {
    if (!this.poolUp) this.poolUp = this.config.warmSessions === 0 || this.pool.readyCount > 0;
    return this.poolUp;
  }

  /** Stops taking new sessions and restores (a drain); live sessions keep running until closeAll(). */
  drain(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  /** Ends every session; later calls fail with SERVER_CLOSING. */
  async closeAll(): Promise<void> {
    this.closing = true;
    clearInterval(this.sweepTimer);
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    const closing = new PyodideMcpError('SERVER_CLOSING', 'The server is shutting down.');
    const channels = this.sessions.clear().map((s) => s.channel);
    await Promise.all([...channels.map((channel) => channel.end(closing)), this.pool.close(closing)]);
    // Their state is kept: another instance sharing --state-dir may restore them at once.
    await this.persistence.releaseAll();
  }

  /**
   * Renews this process's leases (shared --state-dir). A session whose lease was lost (this process stalled past
   * --state-lease and another instance took it over) stops here without touching its state, which is the new
   * holder's now; its calls are told where it went.
   */
  private async renewLeases(): Promise<void> {
    // One round at a time: a round slower than the interval (a busy file system) must not start another that queues
    // the same renewals behind it.
    if (this.renewing) return;
    this.renewing = true;
    try {
      await this.renewRound();
    } finally {
      this.renewing = false;
    }
  }

  private async renewRound(): Promise<void> {
    for (const { id, takenBy } of await this.persistence.renewLeases()) {
      const session = this.sessions.get(id);
      if (!session || this.closing) continue;
      session.persist = false;
      // Either way its saved state may be another instance's now: this one must not write it again.
      const what =
        takenBy === null
          ? `its lease in --state-dir was not renewed within --state-lease here (this instance stalled), so another instance may restore it`
          : `it was taken over by instance "${takenBy}" (its lease in --state-dir went stale here)`;
      this.sessions.bury(
        id,
        new PyodideMcpError(
          'WRONG_INSTANCE',
          `Session ${id} stopped here: ${what}. Send the call again; a proxy routes it to the instance that holds it.`,
        ),
      );
      this.log(`session ${id}: stopped here: ${what}`);
      await session.channel.end();
    }
  }

  /**
   * Runs `task` on a session after every call queued before it; fails at once for an unknown or gone session, or
   * with QUEUE_FULL when the session's queue is at its bound. `bytes`: what the call holds (code, file data).
   */
  protected enqueue<T>(id: string, task: (session: Session) => Promise<T>, bytes = 0): Promise<T> {
    // A live session is queued at once, with no await before: calls keep the order they were made in.
    if (this.sessions.has(id)) return this.queueOn(this.find(id), task, bytes);
    return this.live(id).then((session) => this.queueOn(session, task, bytes));
  }

  private queueOn<T>(session: Session, task: (session: Session) => Promise<T>, bytes: number): Promise<T> {
    return session.queue.run(async () => {
      // When its turn comes the session may have died meanwhile: find() then says why.
      const current = this.find(session.id);
      // An agent waits on it: the server's background work is held meanwhile (src/sessions/background-gate.ts).
      return this.pool.foreground(() => task(current)).finally(() => this.persistence.touched(current));
    }, bytes);
  }

  /** A live session, restored first when it is saved in --state-dir (from before a restart); else why there is none. */
  protected async live(id: string): Promise<Session> {
    if (!this.sessions.has(id)) await this.restore(id);
    return this.find(id);
  }

  /** A live session, or an error that says why there is none. No side effects: expiry is the sweep's job. */
  private find(id: string): Session {
    this.route(id);
    return this.sessions.find(id);
  }

  /**
   * The operator's routing prefix of this server's session ids (--instance-id), or null: ids are then the random
   * part alone.
   */
  get instanceId(): string | null {
    return this.config.instanceId;
  }

  /**
   * Throws WRONG_INSTANCE for an id that names another instance (src/sessions/session-id.ts): the caller is told
   * where to send it rather than that the session does not exist. Every call naming a session passes here first.
   */
  route(id: string): void {
    // Another instance's session restored here (shared --state-dir) is this server's now.
    if (this.sessions.has(id) || this.restorer.has(id)) return;
    const error = foreignInstanceError(id, this.config.instanceId);
    if (error) throw error;
  }
}
