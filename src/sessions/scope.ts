/**
 * SessionScope: one client's view of the SessionManager. With several MCP clients on one server (Streamable HTTP),
 * a Python session belongs to the client that created it: another client naming its id gets the same
 * SESSION_NOT_FOUND as for an id that never existed, and listings show only the client's own sessions. The manager
 * stays the only owner of session handles; a scope only remembers which ids are its own.
 */
import { PyodideMcpError } from '../errors.js';
import type { SessionManager } from './manager.js';
import { unknownSessionError } from './registry.js';

/**
 * The manager's calls on one session, named by its id as their first argument: a scope passes each on only for a
 * session of its own (ownSessionCall). A new call of this kind belongs here, and then needs one line in the scope.
 */
type SessionCall =
  | 'execute'
  | 'writeFile'
  | 'deleteFile'
  | 'readFile'
  | 'readWhole'
  | 'filesOf'
  | 'installWheel'
  | 'loadPackages'
  | 'listPackages'
  | 'namespace'
  | 'reset'
  | 'exportTurn';

/** What the tools and resources use of the session manager: the manager itself, or a scope of it. */
export type SessionAccess = Pick<
  SessionManager,
  | SessionCall
  | 'create'
  | 'allFiles'
  | 'list'
  | 'listRestorable'
  | 'takeRestoreReport'
  | 'close'
  | 'closeAll'
  | 'facts'
  | 'distribution'
  | 'size'
  | 'warmReady'
  | 'warmPreloaded'
  | 'onNamespaceGone'
>;

/** Ids a scope keeps beyond its live sessions, so a late caller still gets why one of its own sessions is gone. */
const REMEMBERED_GONE = 1000;

export class SessionScope implements SessionAccess {
  private readonly owned = new Set<string>();
  /** Unsubscribes this scope's namespace listeners from the manager. */
  private readonly listeners: (() => void)[] = [];
  private closed = false;
  /** Sessions this scope is creating now: they count toward its share before they exist. */
  private pending = 0;

  /**
   * @param options.maxSessions Most sessions this client may hold at once, its share of --max-sessions
   *   (--max-sessions-per-client); default: no share of its own, only the manager's --max-sessions.
   */
  constructor(
    private readonly manager: SessionManager,
    private readonly options: { maxSessions?: number } = {},
  ) {}

  readonly execute = this.ownSessionCall('execute');
  readonly writeFile = this.ownSessionCall('writeFile');
  readonly deleteFile = this.ownSessionCall('deleteFile');
  readonly readFile = this.ownSessionCall('readFile');
  readonly readWhole = this.ownSessionCall('readWhole');
  readonly filesOf = this.ownSessionCall('filesOf');
  readonly installWheel = this.ownSessionCall('installWheel');
  readonly loadPackages = this.ownSessionCall('loadPackages');
  readonly listPackages = this.ownSessionCall('listPackages');
  readonly namespace = this.ownSessionCall('namespace');
  readonly reset = this.ownSessionCall('reset');
  readonly exportTurn = this.ownSessionCall('exportTurn');

  get facts(): SessionManager['facts'] {
    return this.manager.facts;
  }

  get distribution(): SessionManager['distribution'] {
    return this.manager.distribution;
  }

  get warmReady(): number {
    return this.manager.warmReady;
  }

  get warmPreloaded(): number {
    return this.manager.warmPreloaded;
  }

  /** This client's live sessions (server_info's count says nothing about other clients). */
  get size(): number {
    return this.list().length;
  }

  async create(): ReturnType<SessionManager['create']> {
    // Security: one client cannot take every slot of --max-sessions and lock the other clients out.
    const max = this.options.maxSessions;
    if (max !== undefined && this.size + this.pending >= max) {
      throw new PyodideMcpError(
        'CLIENT_SESSION_LIMIT',
        `This client already holds ${max} sessions, its share of the server (--max-sessions-per-client). Close one with close_session (list_sessions shows yours), or reuse one by passing its session_id.`,
      );
    }
    this.pending++;
    let created;
    try {
      created = await this.manager.create();
      // Owned before it stops counting as pending, so that no create in between sees one session fewer.
      this.owned.add(created.id);
    } finally {
      this.pending--;
    }
    // The client went away while its session booted: nobody can reach the session, so it must not linger.
    if (this.closed) await this.manager.close(created.id).catch(() => {});
    this.forgetGone();
    return created;
  }

  allFiles(): ReturnType<SessionManager['allFiles']> {
    return this.manager.allFiles((id) => this.owned.has(id));
  }

  /** Only this client's sessions; the listener leaves the manager when the client's sessions are closed. */
  onNamespaceGone(listener: (id: string) => void): () => void {
    const off = this.manager.onNamespaceGone((id) => {
      if (this.owned.has(id)) listener(id);
    });
    this.listeners.push(off);
    return off;
  }

  /** What the restore of one of this client's sessions did, once (SessionManager.takeRestoreReport). */
  takeRestoreReport(id: string): ReturnType<SessionManager['takeRestoreReport']> {
    return this.owned.has(id) ? this.manager.takeRestoreReport(id) : null;
  }

  /** None: the saved sessions' ids would be other clients' secrets. A client restores one by using its id. */
  async listRestorable(): ReturnType<SessionManager['listRestorable']> {
    return [];
  }

  list(): ReturnType<SessionManager['list']> {
    return this.manager.list().filter((summary) => this.owned.has(summary.session_id));
  }

  close(id: string): Promise<void> {
    return this.manager.close(this.own(id));
  }

  /** Closes this client's sessions (its MCP session ended); other clients' sessions are untouched. */
  async closeAll(): Promise<void> {
    this.closed = true;
    await Promise.all(this.liveIds().map((id) => this.manager.close(id).catch(() => {})));
    this.listeners.splice(0).forEach((off) => off());
  }

  /**
   * A manager call on one session, passed on only for a session of this scope's. A session saved before a restart
   * (--state-dir) is restored for whoever names its id (the id is the secret, as for a live session in stdio mode),
   * and then belongs to this client; another client's live session stays another's: the error for an unknown id.
   */
  private ownSessionCall<K extends SessionCall>(name: K): SessionManager[K] {
    const call = (id: string, ...rest: unknown[]): Promise<unknown> => {
      const run = () => (this.manager[name] as (id: string, ...rest: unknown[]) => Promise<unknown>).call(this.manager, id, ...rest);
      if (this.owned.has(id)) return run();
      // Not checked against this client's share: a restored session was held before the restart. It counts
      // toward the share afterwards.
      return this.manager.restore(id).then((restored) => {
        if (!restored) throw unknownSessionError(id);
        this.owned.add(id);
        return run();
      });
    };
    return call as SessionManager[K];
  }

  /**
   * The id if this scope created it; otherwise the error for an unknown id, word for word (or WRONG_INSTANCE for an
   * id that names another server: the caller's own id says so, it reveals nothing).
   */
  private own(id: string): string {
    this.manager.route(id);
    if (!this.owned.has(id)) throw unknownSessionError(id);
    return id;
  }

  private liveIds(): string[] {
    return this.list().map((summary) => summary.session_id);
  }

  /** Keeps the set bounded: ids of gone sessions beyond the newest REMEMBERED_GONE are dropped. */
  private forgetGone(): void {
    if (this.owned.size <= REMEMBERED_GONE) return;
    const live = new Set(this.liveIds());
    for (const id of this.owned) {
      if (this.owned.size <= REMEMBERED_GONE) break;
      if (!live.has(id)) this.owned.delete(id);
    }
  }
}
