/**
 * The live sessions, and why recently gone ones are gone (closed, expired, dead), so that a late caller gets that
 * reason instead of a bare "not found" or, worse, a silent new session. Lookups have no side effects: a session
 * past its TTL is reported expired here and ended by the manager's sweep.
 */
import type { CellOutcome, RuntimeInfo } from '../wire/contract.js';
import { NEW_SESSION_HINT, PyodideMcpError } from '../errors.js';
import { brokenRule, type SessionChannel } from './channel.js';
import type { FileRef, SessionFileIndex } from './file-index.js';
import type { CellHistory } from './history.js';
import type { RestoreReport } from './restorer.js';
import type { SessionQueue } from './session-queue.js';

export interface Session {
  id: string;
  channel: SessionChannel;
  /** The server's view of the workspace (metadata), updated from every change set. */
  files: SessionFileIndex;
  runtime: RuntimeInfo;
  createdAt: number;
  /**
   * The tenant that created it (HTTP: src/server/http-tenants.ts), saved with it (--state-dir) so that only that
   * tenant restores it; null for sessions of stdio and the library.
   */
  owner: string | null;
  executionCount: number;
  queue: SessionQueue;
  /** Cells run, for export_notebook (bounded by --max-history-cells). */
  history: CellHistory;
  /** Its changes are saved to --state-dir (false without one, and while it is being restored). */
  persist: boolean;
  /** What its restore from --state-dir did, until a reply has said so (SessionManager.takeRestoreReport). */
  restoreReport: RestoreReport | null;
}

/**
 * Applies a change set the session reported to the server's index of its files. Security: a session over its file
 * limits is ended (the index refuses the change), never trusted.
 */
export function applyChanges(session: Session, changes: CellOutcome['changes']): FileRef[] {
  try {
    return session.files.apply(changes);
  } catch (error) {
    void session.channel.end(brokenRule(`went over its file limits (${(error as Error).message})`));
    throw error;
  }
}

/** Public view of a session, as list_sessions reports it. */
export interface SessionSummary {
  session_id: string;
  created_at: string;
  last_used_at: string;
  expires_at: string;
  busy: boolean;
  execution_count: number;
  /** Not running: kept in --state-dir from before a restart; a call with its id restores it. */
  restorable: boolean;
}

/**
 * The error for an id no live or remembered session has. One shape for every unknown id, so that a client scoped to
 * its own sessions (src/sessions/scope.ts) cannot tell someone else's session from one that never existed.
 */
export function unknownSessionError(id: string): PyodideMcpError {
  return new PyodideMcpError('SESSION_NOT_FOUND', `Session ${JSON.stringify(id)} does not exist. ${NEW_SESSION_HINT}`);
}

export class SessionRegistry {
  private readonly live = new Map<string, Session>();
  private readonly gone = new Map<string, PyodideMcpError>();

  /**
   * @param ttlMs idle time after which a session counts as expired
   * @param remembered how many gone sessions keep their reason; older ones are just "unknown"
   */
  constructor(
    private readonly ttlMs: number,
    private readonly remembered = 1000,
  ) {}

  add(session: Session): void {
    this.live.set(session.id, session);
  }

  /** A live session, or the error that says why there is none. */
  find(id: string, now = Date.now()): Session {
    const session = this.live.get(id);
    if (session) {
      const idle = session.queue.idleMsAt(now);
      if (idle < this.ttlMs) return session;
      throw this.expiredError(id, idle);
    }
    throw this.gone.get(id) ?? unknownSessionError(id);
  }

  /** The live session with this id, if any (even past its TTL, until the sweep ends it). */
  get(id: string): Session | undefined {
    return this.live.get(id);
  }

  /** Whether a session with this id is live (even past its TTL, until the sweep ends it). */
  has(id: string): boolean {
    return this.live.has(id);
  }

  /** The live session with this id holding this channel, if any (a dead channel may belong to a gone session). */
  holds(id: string, channel: SessionChannel): boolean {
    return this.live.get(id)?.channel === channel;
  }

  /** Forgets a session, remembering why it is gone. */
  bury(id: string, reason: PyodideMcpError): void {
    this.live.delete(id);
    this.gone.delete(id);
    this.gone.set(id, reason);
    if (this.gone.size > this.remembered) this.gone.delete(this.gone.keys().next().value!);
  }

  /** Sessions idle for the TTL or longer at `now`, each with the error later callers get. */
  expired(now: number): [Session, PyodideMcpError][] {
    return this.all()
      .filter((session) => session.queue.idleMsAt(now) >= this.ttlMs)
      .map((session) => [session, this.expiredError(session.id, session.queue.idleMsAt(now))]);
  }

  all(): Session[] {
    return [...this.live.values()];
  }

  get size(): number {
    return this.live.size;
  }

  /** Forgets every live session (at shutdown); returns them. */
  clear(): Session[] {
    const all = this.all();
    this.live.clear();
    return all;
  }

  summary(s: Session): SessionSummary {
    return {
      session_id: s.id,
      created_at: new Date(s.createdAt).toISOString(),
      last_used_at: new Date(s.queue.lastUsedAt).toISOString(),
      expires_at: new Date(s.queue.lastUsedAt + this.ttlMs).toISOString(),
      busy: s.queue.busy,
      execution_count: s.executionCount,
      restorable: false,
    };
  }

  private expiredError(id: string, idleMs: number): PyodideMcpError {
    return new PyodideMcpError(
      'SESSION_EXPIRED',
      `Session ${id} expired after ${Math.round(idleMs / 1000)} s without use (--session-ttl ${this.ttlMs / 1000} s). ${NEW_SESSION_HINT}`,
    );
  }
}
