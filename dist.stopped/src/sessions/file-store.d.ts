import type { FileChanges, FileLimits, FilePage, WorkerFileChanges } from '../contract.js';
/** A change set that breaks the session's file limits (only code that bypasses the file system can send one). */
export declare class QuotaViolation extends Error {
}
export declare class SessionFileStore {
    private readonly limits;
    private readonly volume;
    /** path → size, to check the limits without touching the volume. */
    private readonly sizes;
    private total;
    constructor(limits: FileLimits);
    /**
     * Stores a change set from the worker and returns it without the bytes. Throws QuotaViolation (storing
     * nothing) when the result would exceed a limit.
     */
    apply(changes: WorkerFileChanges): FileChanges;
    /** Up to `length` bytes of a file from `offset`, and its size; throws if there is no such file. */
    read(path: string, offset: number, length: number): FilePage;
}
