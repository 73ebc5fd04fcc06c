/**
 * The session's workspace inside the worker: the directory user files live in, the change set of each
 * call (so the host can mirror files without asking the worker again), confined file operations for
 * the file tools, and the file quota enforced inside Emscripten's FS so that Python sees an OSError at
 * the write that goes past it, and nothing already stored is touched.
 *
 * Security: the quota is enforced at all times; only the worker's own package installs (`trusted()`) skip it,
 * and only for files under the interpreter's library directories. Before, it held only while a cell ran, and a
 * write from a timer callback after the cell stored a 300 MB file past a 50 MB limit.
 */
import type { EmscriptenFS } from './runtime/types.js';
import type { FileLimits, WorkerFileChanges } from '../src/contract.js';
/** errno values as this interpreter's libc numbers them (read from Python's errno module at boot). */
export interface Errnos {
    ENOSPC: number;
    EFBIG: number;
    EDQUOT: number;
    ENOENT: number;
    EEXIST: number;
    EISDIR: number;
    EACCES: number;
}
/**
 * The workspace holds more than the limits allow, which writes through the file system cannot do: its memory
 * was changed directly (e.g. a MEMFS node's `contents` and `usedBytes` set from Python). The session must end.
 */
export declare class WorkspaceViolation extends Error {
}
/** An error the file tools report as-is (the host turns it into a tool error with this code). */
export declare class WorkspaceError extends Error {
    readonly code: 'PATH_DENIED' | 'FILE_NOT_FOUND' | 'FILE_EXISTS' | 'QUOTA_EXCEEDED' | 'NOT_A_FILE';
    constructor(code: 'PATH_DENIED' | 'FILE_NOT_FOUND' | 'FILE_EXISTS' | 'QUOTA_EXCEEDED' | 'NOT_A_FILE', message: string);
}
export declare class Workspace {
    private readonly FS;
    private readonly limits;
    private readonly errno;
    /** path → "mtime:size" at the last scan; a difference means the file was written. */
    private seen;
    /** Files written while the quota was active, with the size each had when first touched. */
    private readonly tracked;
    private trackedBytes;
    /** Nesting of trusted installs (package loading, wheels) running now. */
    private trustedDepth;
    constructor(FS: EmscriptenFS, limits: FileLimits, errno: Errnos);
    /**
     * Runs the worker's own package installation with the quota lifted for files under PACKAGE_DIRS only: a
     * package may be larger than a session's quota. Everything else stays enforced even meanwhile (user code
     * could still run during it, e.g. through a JavaScript prototype it replaced).
     */
    trusted<T>(work: () => Promise<T> | T): Promise<T>;
    /** Is a write to this file exempt from the quota (a trusted install writing a package file)? */
    private exempt;
    /**
     * Files written or changed in the workspace since the last call, with their bytes, and files deleted.
     * One walk of the workspace only (not the whole filesystem); an idle workspace costs a readdir.
     * Security: sizes are checked against the limits before any byte is read, and each file is read into a
     * buffer of the size that was checked; a workspace over the limits throws WorkspaceViolation.
     */
    collectChanges(): WorkerFileChanges;
    private violation;
    /** At most `size` bytes of a file, into a buffer of that size (whatever the file's node claims meanwhile). */
    private readExactly;
    /**
     * Resolves a workspace-relative path (already normalised by the host) to an absolute one, and checks
     * through Emscripten's own lookup that no symlink on the way leads outside the workspace.
     */
    resolve(rel: string): string;
    /** Writes (or appends) a file, creating parent directories; refuses to overwrite unless asked. */
    writeFile(rel: string, data: Uint8Array, options: {
        append: boolean;
        overwrite: boolean;
    }): void;
    private quotaError;
    /** Deletes a file or an empty directory. */
    delete(rel: string): void;
    /** Reads a file (for run_file). */
    readText(rel: string): string;
    private exists;
    private mkdirs;
    /**
     * Wraps Emscripten's FS.write, FS.mknod, FS.unlink and FS.truncate so that a file larger than
     * maxFileBytes (EFBIG), more than maxSessionBytes in all (ENOSPC), or more than maxFiles files (EDQUOT)
     * fails at the write itself. Files anywhere in the virtual FS count (a quota only on /workspace would
     * leave /tmp unbounded), package files written by a trusted install do not.
     * Why here: MEMFS keeps file contents in JS typed arrays outside the WebAssembly heap, so without this
     * a loop writing to a file could grow the worker's memory without bound.
     * Security: the wrapped functions are made read-only on FS, so user code cannot swap them out.
     */
    private installQuota;
}
