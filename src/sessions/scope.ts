/**
 * SessionScope: one view of the SessionManager that holds only the sessions created through it. Over Streamable
 * HTTP scopes nest: each tenant (bearer token, src/server/http-tenants.ts) has one over the manager, and each of its
 * clients (MCP sessions) one over the tenant's. A Python session belongs to the client that created it and to that
 * client's tenant: another client or tenant naming its id gets the same SESSION_NOT_FOUND as for an id that never
 * existed, and listings show only the scope's own sessions. The manager stays the only owner of session handles; a
 * scope only remembers which ids are its own.
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

/**
 * What a scope uses of what it is over: the manager or another scope. `create` and `restore` take the tenant
 * (`owner`) from the scope that has one; a scope over a scope passes none and its parent puts its own.
 */
export type ScopeParent = Pick<
  SessionManager,
  SessionCall | 'list' | 'close' | 'route' | 'takeRestoreReport' | 'facts' | 'distribution' | 'warmReady' | 'warmPreloaded'
> & {
  create(owner?: string | null): ReturnType<SessionManager['create']>;
  restore(id: string, owner?: string | null): Promise<boolean>;
  allFiles(of?: (id: string) => boolean): ReturnType<SessionManager['allFiles']>;
  onNamespaceGone(listener: (id: string) => void): () => void;
};

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
   * @param parent The manager (a tenant's scope, or a client's without tenants), or the tenant's scope (a client's).
   * @param options.maxSessions Most sessions this client may hold at once, its share of --max-sessions
   *   (--max-sessions-per-client); default: no share of its own, only the manager's --max-sessions.
   * @param options.owner The tenant this scope is for (over the manager): recorded with the sessions it creates
   *   (--state-dir), so that a saved session is restored only for its tenant.
   * @param options.share Whose share `maxSessions` is, for the error: a client's (default) or a tenant's
   *   (--max-sessions-per-tenant).
   */
  constructor(
    private readonly parent: ScopeParent,
    private readonly options: { maxSessions?: number; owner?: string; share?: 'client' | 'tenant' } = {},
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
    return this.parent.facts;
  }

  get distribution(): SessionManager['distribution'] {
    return this.parent.distribution;
  }

  get warmReady(): number {
    return this.parent.warmReady;
  }

  get warmPreloaded(): number {
    return this.parent.warmPreloaded;
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
        this.options.share === 'tenant'
          ? `This tenant (the bearer token's clients together) already holds ${max} sessions, its share of the server (--max-sessions-per-tenant). Close one with close_session (list_sessions shows this client's), or reuse one by passing its session_id.`
          : `This client already holds ${max} sessions, its share of the server (--max-sessions-per-client). Close one with close_session (list_sessions shows yours), or reuse one by passing its session_id.`,
      );
    }
    this.pending++;
    let created;
    try {
      created = await this.parent.create(this.options.owner ?? null);
      // Owned before it stops counting as pending, so that no create in between sees one session fewer.
      this.owned.add(created.id);
    } finally {
      this.pending--;
    }
    // The client went away while its session booted: nobody can reach the session, so it must not linger.
    if (this.closed) await this.parent.close(created.id).catch(() => {});
    this.forgetGone();
    return created;
  }

  allFiles(of: (id: string) => boolean = () => true): ReturnType<SessionManager['allFiles']> {
    return this.parent.allFiles((id) => this.owned.has(id) && of(id));
  }

  /**
   * Only this scope's sessions; the listener leaves the manager when it is called off or the scope's sessions are
   * closed. Called off, it is forgotten here too: a tenant's scope outlives many clients' listeners.
   */
  onNamespaceGone(listener: (id: string) => void): () => void {
    const unsubscribe = this.parent.onNamespaceGone((id) => {
      if (this.owned.has(id)) listener(id);
    });
    const off = () => {
      unsubscribe();
      const at = this.listeners.indexOf(off);
      if (at >= 0) this.listeners.splice(at, 1);
    };
    this.listeners.push(off);
    return off;
  }

  /**
   * Restores a saved session (--state-dir) for this scope, which then owns it; false for a live session (its own
   * or another's: the caller then treats the id as unknown unless it is its own) and for an unknown id.
   */
  async restore(id: string): Promise<boolean> {
    if (this.owned.has(id)) return false;
    const restored = await this.parent.restore(id, this.options.owner ?? null);
    if (restored) this.owned.add(id);
    return restored;
  }

  /** WRONG_INSTANCE for an id of another server (SessionManager.route). */
  route(id: string): void {
    this.parent.route(id);
  }

  /** What the restore of one of this client's sessions did, once (SessionManager.takeRestoreReport). */
  takeRestoreReport(id: string): ReturnType<SessionManager['takeRestoreReport']> {
    return this.owned.has(id) ? this.parent.takeRestoreReport(id) : null;
  }

  /** None: the saved sessions' ids would be other clients' secrets. A client restores one by using its id. */
  async listRestorable(): ReturnType<SessionManager['listRestorable']> {
    return [];
  }

  list(): ReturnType<SessionManager['list']> {
    return this.parent.list().filter((summary) => this.owned.has(summary.session_id));
  }

  close(id: string): Promise<void> {
    return this.parent.close(this.own(id));
  }

  /** Closes this client's sessions (its MCP session ended); other clients' sessions are untouched. */
  async closeAll(): Promise<void> {
    this.closed = true;
    await Promise.all(this.liveIds().map((id) => this.parent.close(id).catch(() => {})));
    [...this.listeners].forEach((off) => off());
  }

  /**
   * A manager call on one session, passed on only for a session of this scope's. A session saved before a restart
   * (--state-dir) is restored for whoever names its id (the id is the secret, as for a live session in stdio mode),
   * and then belongs to this client; another client's live session stays another's: the error for an unknown id.
   */
  private ownSessionCall<K extends SessionCall>(name: K): SessionManager[K] {
    const call = (id: string, ...rest: unknown[]): Promise<unknown> => {
      const run = () => (this.parent[name] as (id: string, ...rest: unknown[]) => Promise<unknown>).call(this.parent, id, ...rest);
      if (this.owned.has(id)) return run();
      // Not checked against this client's share: a restored session was held before the restart. It counts
      // toward the share afterwards.
      return this.restore(id).then((restored) => {
        if (!restored) throw unknownSessionError(id);
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
    this.parent.route(id);
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
