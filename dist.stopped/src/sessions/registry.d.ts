/**
 * The live sessions, and why recently gone ones are gone (closed, expired, dead), so that a late caller gets that
 * reason instead of a bare "not found" or, worse, a silent new session. Lookups have no side effects: a session
 * past its TTL is reported expired here and ended by the manager's sweep.
 */
import type { RuntimeInfo } from '../contract.js';
import { PyodideMcpError } from '../errors.js';
import type { SessionChannel } from './channel.js';
import type { SessionFileIndex } from './file-index.js';
import type { CellHistory } from './history.js';
import type { SessionQueue } from './session-queue.js';
export interface Session {
    id: string;
    channel: SessionChannel;
    /** The server's view of the workspace (metadata), updated from every change set. */
    files: SessionFileIndex;
    runtime: RuntimeInfo;
    createdAt: number;
    executionCount: number;
    queue: SessionQueue;
    /** Cells run, for export_notebook (bounded by --max-history-cells). */
    history: CellHistory;
    /** Its changes are saved to --state-dir (false without one, and while it is being restored). */
    persist: boolean;
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
export declare function unknownSessionError(id: string): PyodideMcpError;
export declare class SessionRegistry {
    private readonly ttlMs;
    private readonly remembered;
    private readonly live;
    private readonly gone;
    /**
     * @param ttlMs idle time after which a session counts as expired
     * @param remembered how many gone sessions keep their reason; older ones are just "unknown"
     */
    constructor(ttlMs: number, remembered?: number);
    add(session: Session): void;
    /** A live session, or the error that says why there is none. */
    find(id: string, now?: number): Session;
    /** Whether a session with this id is live (even past its TTL, until the sweep ends it). */
    has(id: string): boolean;
    /** The live session with this id holding this channel, if any (a dead channel may belong to a gone session). */
    holds(id: string, channel: SessionChannel): boolean;
    /** Forgets a session, remembering why it is gone. */
    bury(id: string, reason: PyodideMcpError): void;
    /** Sessions idle for the TTL or longer at `now`, each with the error later callers get. */
    expired(now: number): [Session, PyodideMcpError][];
    all(): Session[];
    get size(): number;
    /** Forgets every live session (at shutdown); returns them. */
    clear(): Session[];
    summary(s: Session): SessionSummary;
    private expiredError;
}
