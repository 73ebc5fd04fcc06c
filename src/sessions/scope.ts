/**
 * SessionScope: one client's view of the SessionManager. With several MCP clients on one server (Streamable HTTP),
 * a Python session belongs to the client that created it: another client naming its id gets the same
 * SESSION_NOT_FOUND as for an id that never existed, and listings show only the client's own sessions. The manager
 * stays the only owner of session handles; a scope only remembers which ids are its own.
 */
import type { ReplyOf, RequestOf } from '../wire/contract.js';
import { PyodideMcpError } from '../errors.js';
import type { ExportTurn, SessionManager } from './manager.js';
import { unknownSessionError } from './registry.js';

/** What the tools and resources use of the session manager: the manager itself, or a scope of it. */
export type SessionAccess = Pick<
  SessionManager,
  | 'create'
  | 'execute'
  | 'writeFile'
  | 'deleteFile'
  | 'readFile'
  | 'readWhole'
  | 'filesOf'
  | 'allFiles'
  | 'installWheel'
  | 'loadPackages'
  | 'listPackages'
  | 'list'
  | 'listRestorable'
  | 'restore'
  | 'close'
  | 'closeAll'
  | 'facts'
  | 'distribution'
  | 'size'
  | 'warmReady'
  | 'warmPreloaded'
  | 'namespace'
  | 'reset'
  | 'exportTurn'
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

  execute(...[id, ...rest]: Parameters<SessionManager['execute']>): ReturnType<SessionManager['execute']> {
    return this.manager.execute(this.own(id), ...rest);
  }

  writeFile(...[id, ...rest]: Parameters<SessionManager['writeFile']>): ReturnType<SessionManager['writeFile']> {
    return this.manager.writeFile(this.own(id), ...rest);
  }

  deleteFile(id: string, path: string): Promise<void> {
    return this.manager.deleteFile(this.own(id), path);
  }

  readFile(...[id, ...rest]: Parameters<SessionManager['readFile']>): ReturnType<SessionManager['readFile']> {
    return this.manager.readFile(this.own(id), ...rest);
  }

  readWhole<T>(id: string, path: string, use: (data: Uint8Array) => Promise<T>): Promise<T> {
    return this.manager.readWhole(this.own(id), path, use);
  }

  filesOf(id: string): ReturnType<SessionManager['filesOf']> {
    return this.manager.filesOf(this.own(id));
  }

  allFiles(): ReturnType<SessionManager['allFiles']> {
    return this.liveIds().flatMap((id) => {
      try {
        return this.manager.filesOf(id).allFiles();
      } catch {
        return []; // expired, not yet swept
      }
    });
  }

  installWheel(id: string, filename: string, data: Uint8Array): Promise<void> {
    return this.manager.installWheel(this.own(id), filename, data);
  }

  loadPackages(id: string, packages: string[]): Promise<void> {
    return this.manager.loadPackages(this.own(id), packages);
  }

  listPackages(id: string): ReturnType<SessionManager['listPackages']> {
    return this.manager.listPackages(this.own(id));
  }

  namespace<K extends 'list_variables' | 'inspect_variable' | 'remove_variables'>(
    id: string,
    body: RequestOf<K> & { type: K },
    signal?: AbortSignal,
  ): Promise<ReplyOf<K>> {
    return this.manager.namespace<K>(this.own(id), body, signal);
  }

  reset(id: string, clearFiles: boolean): ReturnType<SessionManager['reset']> {
    return this.manager.reset(this.own(id), clearFiles);
  }

  exportTurn<T>(id: string, task: (turn: ExportTurn) => Promise<T>): Promise<T> {
    return this.manager.exportTurn(this.own(id), task);
  }

  /** Only this client's sessions; the listener leaves the manager when the client's sessions are closed. */
  onNamespaceGone(listener: (id: string) => void): () => void {
    const off = this.manager.onNamespaceGone((id) => {
      if (this.owned.has(id)) listener(id);
    });
    this.listeners.push(off);
    return off;
  }

  /**
   * Restores a session saved before a restart (--state-dir) for whoever names its id (the id is the secret, as
   * for a live session in stdio mode); the session then belongs to this client. Another client's live session
   * stays another's: null, and the call then finds no such session.
   */
  async restore(id: string): ReturnType<SessionManager['restore']> {
    // Not checked against this client's share: this runs before every call that names a session (null for a live
    // or unknown id), and a restored session was held before the restart. It counts toward the share afterwards.
    const report = await this.manager.restore(id);
    if (report) this.owned.add(id);
    return report;
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

  /** The id if this scope created it; otherwise the error for an unknown id, word for word. */
  private own(id: string): string {
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
