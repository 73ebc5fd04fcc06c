import { type CellOutcome, type FilePage, type PackageListing, type ReplyOf, type RequestOf, type RuntimeInfo } from '../contract.js';
import { PyodideMcpError } from '../errors.js';
import { type Distribution, type DistributionFacts } from '../python/distribution.js';
import type { Config } from '../server/config.js';
import type { CellSource, InterruptReason } from './channel.js';
import { CellHistory } from './history.js';
import { SessionFileIndex, type FileRef } from './file-index.js';
import { type SessionSummary } from './registry.js';
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
/** What a restore did (--state-dir): the reply of the call that caused it says so. */
export interface RestoreReport {
    /** Cells replayed. */
    cells: number;
    /** Numbers (as they ran before the restart) of the replayed cells that raised. */
    failed: number[];
    /** Numbers of the cells not replayed because they were interrupted then (time limit, cancellation). */
    skipped: number[];
    /** Cells older than the history bound (--max-history-cells, --max-history-bytes), no longer kept and so not replayed. */
    dropped: number;
    /**
     * Parts of the saved cell log that could not be read, each with why (a torn or corrupt line, a log too large or
     * unreadable); empty when all of it was read. Cells in them were not replayed.
     */
    unread: string[];
    /** Workspace files copied back. */
    files: number;
    /** Files that could not be copied back (over a file limit, or unreadable). */
    skipped_files: string[];
}
/** What an export may do in its turn: the history holds still, and files are read and written without queueing again. */
export interface ExportTurn {
    history: CellHistory;
    /** The session's Python version. */
    python: string;
    /** A file's size from the server's index (no round trip), or null when it is not a file. */
    sizeOf(path: string): number | null;
    readFile(path: string, length: number): Promise<FilePage>;
    writeFile(path: string, data: Uint8Array, options: {
        append: boolean;
        overwrite: boolean;
    }): Promise<FileRef>;
}
export declare class SessionManager {
    private readonly config;
    readonly distribution: Distribution;
    private readonly log;
    private readonly sessions;
    /** Sessions being booted count toward --max-sessions too. */
    private booting;
    private readonly sweepTimer;
    private closing;
    private readonly pool;
    /** Sessions kept on disk across restarts (--state-dir), or null: then nothing is written to disk. */
    private readonly store;
    /** Restores in progress, so that concurrent calls with one id wait for the same one. */
    private readonly restoring;
    /** What the distribution offers, from its metadata: known before any session boots. */
    readonly facts: DistributionFacts;
    private readonly exportSlots;
    constructor(config: Config, distribution: Distribution, log: (message: string) => void);
    /** Boots a new session (or takes a warm one) and returns it once its runtime is ready. */
    create(): Promise<{
        id: string;
        runtime: RuntimeInfo;
        expiresAt: number;
    }>;
    /**
     * Boots a session with this id; `persist` false while it is being restored (its state on disk is the one to
     * restore, not yet what the session holds).
     */
    private boot;
    /**
     * Resolves to {module: version} once the session has imported the preload set in the background ({} when there
     * is none); rejects if it could not (what is missing is then imported on first use).
     */
    preloaded(id: string): Promise<Record<string, string>>;
    /** Warm sessions ready to be taken, for server_info. */
    get warmReady(): number;
    /** Warm sessions ready to be taken that have imported the preload set too, for server_info. */
    get warmPreloaded(): number;
    get size(): number;
    /** Packages loaded in a session, and those it could load offline. */
    listPackages(id: string): Promise<PackageListing>;
    /** Runs code in a session, after the calls queued before it; other sessions are unaffected. */
    execute(id: string, source: CellSource, timeoutMs: number, signal?: AbortSignal): Promise<Execution>;
    /** Runs one cell in a session whose turn it is (execute, and replays during a restore). */
    private runCell;
    /** Waits until the session has imported its preload set (or failed to, or `signal` aborts). */
    private untilPreloaded;
    /** Writes a file into a session's workspace, queued behind running code. */
    writeFile(id: string, path: string, data: Uint8Array, options: {
        append: boolean;
        overwrite: boolean;
    }): Promise<FileRef>;
    /** Writes a file in a call whose turn it is. */
    private writeNow;
    /** Deletes a file (or empty directory) from a session's workspace, queued behind running code. */
    deleteFile(id: string, path: string): Promise<void>;
    /**
     * Reads up to `length` bytes of a session file from `offset`. Not queued: the session's supervisor answers from
     * its copy of the files even while the session runs code (the files as of the end of the last call).
     */
    readFile(id: string, path: string, offset?: number, length?: number): Promise<FilePage>;
    /** The server's view of a session's files: answers at once, even while the session runs code. */
    filesOf(id: string): SessionFileIndex;
    /** Every file of every live session, for resources/list. */
    allFiles(): FileRef[];
    /** Installs a fetched pure-Python wheel into a session, queued like a cell. */
    installWheel(id: string, filename: string, data: Uint8Array): Promise<void>;
    /** Loads offline packages into a session, queued like a cell. */
    loadPackages(id: string, packages: string[]): Promise<void>;
    /** A live session's runtime and summary, for the library's session handles; throws why a session is gone. */
    describe(id: string): {
        runtime: RuntimeInfo;
        summary: SessionSummary;
    };
    list(): SessionSummary[];
    /** With --state-dir, the sessions on disk (saved before a restart) that a call with their id would restore. */
    listRestorable(): Promise<SessionSummary[]>;
    /**
     * With --state-dir: when `id` is not a live session but is kept on disk (from before a restart), boots a session
     * with that id, copies its files back and replays its cells in order (each with its time limit), then returns what
     * was done. Null when there was nothing to restore (a live or unknown id: the call then goes on as usual). Calls
     * with the same id meanwhile wait for this restore.
     */
    restore(id: string): Promise<RestoreReport | null>;
    private restoreFromDisk;
    /** Copies a stored session's files into it and replays its cells; the files end as they were stored. */
    private replay;
    private restoreFailed;
    /**
     * Terminates a session and forgets it, deleting its saved state (--state-dir). A session that is only on disk
     * (not restored since a restart) is deleted without being restored. Throws if the session does not exist.
     */
    close(id: string): Promise<void>;
    /**
     * A namespace request (list_variables, inspect_variable, remove_variables), queued like a cell and bound by the
     * default time limit: it runs user code (a __repr__, a property) that may loop.
     */
    namespace<K extends 'list_variables' | 'inspect_variable' | 'remove_variables'>(id: string, body: RequestOf<K> & {
        type: K;
    }, signal?: AbortSignal): Promise<ReplyOf<K>>;
    /**
     * A fresh namespace in the same session, as after a kernel restart: user names removed, execution count and cell
     * history started again, files kept unless `clearFiles`. Returns how many names were removed.
     */
    reset(id: string, clearFiles: boolean): Promise<{
        removed: number;
        files_deleted: number;
    }>;
    /** A session's cell history (export_notebook); answers at once, even while the session runs code. */
    historyOf(id: string): {
        history: CellHistory;
        python: string;
    };
    /**
     * Runs an export (export_notebook) in the session's turn, after the calls queued before it (so its history holds
     * still), and in one of EXPORT_SLOTS server-wide slots (so exports at once cannot multiply the server's memory).
     */
    exportTurn<T>(id: string, task: (turn: ExportTurn) => Promise<T>): Promise<T>;
    /**
     * Calls `listener` with the id of every session whose namespace goes from now on: the session ended (closed,
     * expired, dead; not at shutdown) or was reset. What was published from the namespace (register_tool) goes with it.
     */
    onNamespaceGone(listener: (id: string) => void): () => void;
    private readonly endListeners;
    private notifyEnd;
    /** Closes sessions idle for longer than the TTL. Busy sessions are never expired mid-call. */
    sweep(now?: number): void;
    /** Terminates every session; later calls fail with SERVER_CLOSING. */
    closeAll(): Promise<void>;
    /** Runs `task` on a session after every call queued before it; fails at once for an unknown or gone session. */
    private enqueue;
    /**
     * Runs a write to the state directory for a session that is kept there (--state-dir, not being restored). A failed
     * write is logged, never the call's failure: the session itself is fine.
     */
    private saving;
    /** Saves a change set: the bytes of the written files (read from the session's copy) and the deletions. */
    private saveChanges;
    /** Deletes a session's saved state (closed, expired, dead); shutdown keeps it. */
    private forget;
    private applyChanges;
    /** A live session, or an error that says why there is none. No side effects: expiry is the sweep's job. */
    private find;
}
