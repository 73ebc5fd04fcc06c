import type { FileLimits } from '../contract.js';
import type { CellSource } from './channel.js';
/** A session id as newSessionId() makes them: 24 random bytes in base64url, nothing else may become a path. */
export declare const SESSION_ID: RegExp;
/** One cell as it is replayed: what ran, with which time limit, and how it ended then. */
export interface LoggedCell {
    source: CellSource;
    timeoutMs: number;
    /** False when the cell was interrupted (time limit, cancellation): a restore skips it. */
    completed: boolean;
    /** Its number when it ran. */
    executionCount: number;
    at: number;
}
/** A session on disk, as list_sessions shows it before it is restored. */
export interface StoredSummary {
    id: string;
    createdAt: number;
    lastUsedAt: number;
    cells: number;
}
/** A file read back for a restore. */
export interface StoredFile {
    path: string;
    data: Uint8Array;
}
/** Everything a restore needs. */
export interface StoredSession extends StoredSummary {
    files: StoredFile[];
    /** Files left out: over a file limit, unreadable, or not a regular file. */
    skippedFiles: string[];
    log: LoggedCell[];
    /** Cells no longer on disk because of the history bound (--max-history-cells, --max-history-bytes). */
    dropped: number;
    /** Parts of the log that could not be read, each with why; empty when all of it was. */
    unread: string[];
}
export declare class StateStore {
    readonly dir: string;
    private readonly ttlMs;
    private readonly limits;
    private readonly maxCells;
    private readonly maxBytes;
    private readonly log;
    /** Appended lines per session since the log was last compacted (loaded lazily). */
    private readonly logLines;
    /** Manifests of the sessions written to in this process. */
    private readonly manifests;
    private constructor();
    /**
     * Opens (creating it 0700 if missing) the state directory. Throws a TypeError (a usage error) when it cannot be
     * trusted: another user's, or writable by group or others.
     */
    static open(dir: string, options: {
        ttlMs: number;
        limits: FileLimits;
        maxCells: number;
        maxBytes: number;
        log: (message: string) => void;
    }): StateStore;
    /** Starts keeping a new session (or one being restored): its directory and meta.json. */
    create(id: string, createdAt: number, lastUsedAt?: number): Promise<void>;
    /** Records the last use of a session (its on-disk TTL runs from there). */
    touch(id: string, createdAt: number, lastUsedAt: number): Promise<void>;
    /** Whether a (not expired) session with this id is on disk. Expired ones are deleted on the way. */
    has(id: string, now?: number): Promise<'yes' | 'no' | 'expired'>;
    /** Sessions on disk and not expired, except those in `live`; expired ones are deleted. */
    list(live: Set<string>, now?: number): Promise<StoredSummary[]>;
    /** Deletes the sessions (except those in `live`) whose TTL ran out while the server was down, or since. */
    sweep(live: Set<string>, now?: number): Promise<void>;
    /** The sessions on disk not in `live` and not expired, with their meta; expired ones are deleted on the way. */
    private unexpired;
    /** Reads a session back for a restore, within the file limits; null when there is none. */
    load(id: string): Promise<StoredSession | null>;
    /** Records a call's change set: the bytes of the files it wrote, and the files it deleted. */
    applyFiles(id: string, written: StoredFile[], deleted: string[]): Promise<void>;
    /** Appends a cell to the replay log, compacting it to the history bounds now and then. */
    appendCell(id: string, cell: LoggedCell): Promise<void>;
    /** Empties the replay log (reset_session: a fresh namespace replays nothing before it). */
    clearCells(id: string): Promise<void>;
    /** Deletes a session's state (close_session, expiry, a session that died). */
    remove(id: string): Promise<void>;
    /**
     * Rewrites the log as its newest cells within the bounds, after a header line that keeps the count of the cells
     * dropped and what could not be read (a later restore reports both).
     */
    private compact;
    /**
     * The replay log: its newest cells within --max-history-cells and --max-history-bytes (of their lines), how many
     * before them are gone, and what could not be read. Read a chunk at a time: the memory it takes is bounded by the
     * bounds, not by the file.
     */
    private readLog;
    private manifestOf;
    private readManifest;
    private readMeta;
    private writeMeta;
    /** The session ids in the state directory (other names are ignored). */
    private ids;
    private sessionDir;
    /** A session directory must be a real directory (not a link), this user's, writable by no one else. */
    private checkDir;
    /** A regular file's bytes, up to `max` (null when missing, a link, larger, another user's or writable by others). */
    private readRegular;
}
