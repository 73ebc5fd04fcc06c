import { unknownSessionError } from './registry.js';
/** Ids a scope keeps beyond its live sessions, so a late caller still gets why one of its own sessions is gone. */
const REMEMBERED_GONE = 1000;
export class SessionScope {
    manager;
    owned = new Set();
    /** Unsubscribes this scope's namespace listeners from the manager. */
    listeners = [];
    closed = false;
    constructor(manager) {
        this.manager = manager;
    }
    get facts() {
        return this.manager.facts;
    }
    get distribution() {
        return this.manager.distribution;
    }
    get warmReady() {
        return this.manager.warmReady;
    }
    get warmPreloaded() {
        return this.manager.warmPreloaded;
    }
    /** This client's live sessions (server_info's count says nothing about other clients). */
    get size() {
        return this.list().length;
    }
    async create() {
        const created = await this.manager.create();
        this.owned.add(created.id);
        // The client went away while its session booted: nobody can reach the session, so it must not linger.
        if (this.closed)
            await this.manager.close(created.id).catch(() => { });
        this.forgetGone();
        return created;
    }
    execute(...[id, ...rest]) {
        return this.manager.execute(this.own(id), ...rest);
    }
    writeFile(...[id, ...rest]) {
        return this.manager.writeFile(this.own(id), ...rest);
    }
    deleteFile(id, path) {
        return this.manager.deleteFile(this.own(id), path);
    }
    readFile(...[id, ...rest]) {
        return this.manager.readFile(this.own(id), ...rest);
    }
    filesOf(id) {
        return this.manager.filesOf(this.own(id));
    }
    allFiles() {
        return this.liveIds().flatMap((id) => {
            try {
                return this.manager.filesOf(id).allFiles();
            }
            catch {
                return []; // expired, not yet swept
            }
        });
    }
    installWheel(id, filename, data) {
        return this.manager.installWheel(this.own(id), filename, data);
    }
    loadPackages(id, packages) {
        return this.manager.loadPackages(this.own(id), packages);
    }
    listPackages(id) {
        return this.manager.listPackages(this.own(id));
    }
    namespace(id, body, signal) {
        return this.manager.namespace(this.own(id), body, signal);
    }
    reset(id, clearFiles) {
        return this.manager.reset(this.own(id), clearFiles);
    }
    historyOf(id) {
        return this.manager.historyOf(this.own(id));
    }
    exportTurn(id, task) {
        return this.manager.exportTurn(this.own(id), task);
    }
    /** Only this client's sessions; the listener leaves the manager when the client's sessions are closed. */
    onNamespaceGone(listener) {
        const off = this.manager.onNamespaceGone((id) => {
            if (this.owned.has(id))
                listener(id);
        });
        this.listeners.push(off);
        return off;
    }
    /**
     * Restores a session saved before a restart (--state-dir) for whoever names its id (the id is the secret, as
     * for a live session in stdio mode); the session then belongs to this client. Another client's live session
     * stays another's: null, and the call then finds no such session.
     */
    async restore(id) {
        const report = await this.manager.restore(id);
        if (report)
            this.owned.add(id);
        return report;
    }
    /** None: the saved sessions' ids would be other clients' secrets. A client restores one by using its id. */
    async listRestorable() {
        return [];
    }
    list() {
        return this.manager.list().filter((summary) => this.owned.has(summary.session_id));
    }
    close(id) {
        return this.manager.close(this.own(id));
    }
    /** Closes this client's sessions (its MCP session ended); other clients' sessions are untouched. */
    async closeAll() {
        this.closed = true;
        await Promise.all(this.liveIds().map((id) => this.manager.close(id).catch(() => { })));
        this.listeners.splice(0).forEach((off) => off());
    }
    /** The id if this scope created it; otherwise the error for an unknown id, word for word. */
    own(id) {
        if (!this.owned.has(id))
            throw unknownSessionError(id);
        return id;
    }
    liveIds() {
        return this.list().map((summary) => summary.session_id);
    }
    /** Keeps the set bounded: ids of gone sessions beyond the newest REMEMBERED_GONE are dropped. */
    forgetGone() {
        if (this.owned.size <= REMEMBERED_GONE)
            return;
        const live = new Set(this.liveIds());
        for (const id of this.owned) {
            if (this.owned.size <= REMEMBERED_GONE)
                break;
            if (!live.has(id))
                this.owned.delete(id);
        }
    }
}
