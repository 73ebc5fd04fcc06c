import { NEW_SESSION_HINT, PyodideMcpError } from '../errors.js';
/**
 * The error for an id no live or remembered session has. One shape for every unknown id, so that a client scoped to
 * its own sessions (src/sessions/scope.ts) cannot tell someone else's session from one that never existed.
 */
export function unknownSessionError(id) {
    return new PyodideMcpError('SESSION_NOT_FOUND', `Session ${JSON.stringify(id)} does not exist. ${NEW_SESSION_HINT}`);
}
export class SessionRegistry {
    ttlMs;
    remembered;
    live = new Map();
    gone = new Map();
    /**
     * @param ttlMs idle time after which a session counts as expired
     * @param remembered how many gone sessions keep their reason; older ones are just "unknown"
     */
    constructor(ttlMs, remembered = 1000) {
        this.ttlMs = ttlMs;
        this.remembered = remembered;
    }
    add(session) {
        this.live.set(session.id, session);
    }
    /** A live session, or the error that says why there is none. */
    find(id, now = Date.now()) {
        const session = this.live.get(id);
        if (session) {
            const idle = session.queue.idleSince(now);
            if (idle < this.ttlMs)
                return session;
            throw this.expiredError(id, idle);
        }
        throw this.gone.get(id) ?? unknownSessionError(id);
    }
    /** Whether a session with this id is live (even past its TTL, until the sweep ends it). */
    has(id) {
        return this.live.has(id);
    }
    /** The live session with this id holding this channel, if any (a dead channel may belong to a gone session). */
    holds(id, channel) {
        return this.live.get(id)?.channel === channel;
    }
    /** Forgets a session, remembering why it is gone. */
    bury(id, reason) {
        this.live.delete(id);
        this.gone.delete(id);
        this.gone.set(id, reason);
        if (this.gone.size > this.remembered)
            this.gone.delete(this.gone.keys().next().value);
    }
    /** Sessions idle for the TTL or longer at `now`, each with the error later callers get. */
    expired(now) {
        return this.all()
            .filter((session) => session.queue.idleSince(now) >= this.ttlMs)
            .map((session) => [session, this.expiredError(session.id, session.queue.idleSince(now))]);
    }
    all() {
        return [...this.live.values()];
    }
    get size() {
        return this.live.size;
    }
    /** Forgets every live session (at shutdown); returns them. */
    clear() {
        const all = this.all();
        this.live.clear();
        return all;
    }
    summary(s) {
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
    expiredError(id, idleMs) {
        return new PyodideMcpError('SESSION_EXPIRED', `Session ${id} expired after ${Math.round(idleMs / 1000)} s without use (--session-ttl ${this.ttlMs / 1000} s). ${NEW_SESSION_HINT}`);
    }
}
