/**
 * SessionScope: one client's view of the SessionManager. With several MCP clients on one server (Streamable HTTP),
 * a Python session belongs to the client that created it: another client naming its id gets the same
 * SESSION_NOT_FOUND as for an id that never existed, and listings show only the client's own sessions. The manager
 * stays the only owner of session handles; a scope only remembers which ids are its own.
 */
import type { ReplyOf, RequestOf } from '../contract.js';
import type { ExportTurn, SessionManager } from './manager.js';
/** What the tools and resources use of the session manager: the manager itself, or a scope of it. */
export type SessionAccess = Pick<SessionManager, 'create' | 'execute' | 'writeFile' | 'deleteFile' | 'readFile' | 'filesOf' | 'allFiles' | 'installWheel' | 'loadPackages' | 'listPackages' | 'list' | 'listRestorable' | 'restore' | 'close' | 'closeAll' | 'facts' | 'distribution' | 'size' | 'warmReady' | 'warmPreloaded' | 'namespace' | 'reset' | 'historyOf' | 'exportTurn' | 'onNamespaceGone'>;
export declare class SessionScope implements SessionAccess {
    private readonly manager;
    private readonly owned;
    /** Unsubscribes this scope's namespace listeners from the manager. */
    private readonly listeners;
    private closed;
    constructor(manager: SessionManager);
    get facts(): SessionManager['facts'];
    get distribution(): SessionManager['distribution'];
    get warmReady(): number;
    get warmPreloaded(): number;
    /** This client's live sessions (server_info's count says nothing about other clients). */
    get size(): number;
    create(): ReturnType<SessionManager['create']>;
    execute(...[id, ...rest]: Parameters<SessionManager['execute']>): ReturnType<SessionManager['execute']>;
    writeFile(...[id, ...rest]: Parameters<SessionManager['writeFile']>): ReturnType<SessionManager['writeFile']>;
    deleteFile(id: string, path: string): Promise<void>;
    readFile(...[id, ...rest]: Parameters<SessionManager['readFile']>): ReturnType<SessionManager['readFile']>;
    filesOf(id: string): ReturnType<SessionManager['filesOf']>;
    allFiles(): ReturnType<SessionManager['allFiles']>;
    installWheel(id: string, filename: string, data: Uint8Array): Promise<void>;
    loadPackages(id: string, packages: string[]): Promise<void>;
    listPackages(id: string): ReturnType<SessionManager['listPackages']>;
    namespace<K extends 'list_variables' | 'inspect_variable' | 'remove_variables'>(id: string, body: RequestOf<K> & {
        type: K;
    }, signal?: AbortSignal): Promise<ReplyOf<K>>;
    reset(id: string, clearFiles: boolean): ReturnType<SessionManager['reset']>;
    historyOf(id: string): ReturnType<SessionManager['historyOf']>;
    exportTurn<T>(id: string, task: (turn: ExportTurn) => Promise<T>): Promise<T>;
    /** Only this client's sessions; the listener leaves the manager when the client's sessions are closed. */
    onNamespaceGone(listener: (id: string) => void): () => void;
    /**
     * Restores a session saved before a restart (--state-dir) for whoever names its id (the id is the secret, as
     * for a live session in stdio mode); the session then belongs to this client. Another client's live session
     * stays another's: null, and the call then finds no such session.
     */
    restore(id: string): ReturnType<SessionManager['restore']>;
    /** None: the saved sessions' ids would be other clients' secrets. A client restores one by using its id. */
    listRestorable(): ReturnType<SessionManager['listRestorable']>;
    list(): ReturnType<SessionManager['list']>;
    close(id: string): Promise<void>;
    /** Closes this client's sessions (its MCP session ended); other clients' sessions are untouched. */
    closeAll(): Promise<void>;
    /** The id if this scope created it; otherwise the error for an unknown id, word for word. */
    private own;
    private liveIds;
    /** Keeps the set bounded: ids of gone sessions beyond the newest REMEMBERED_GONE are dropped. */
    private forgetGone;
}
