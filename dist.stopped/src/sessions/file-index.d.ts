/**
 * The server's view of one session's files: metadata only (path, size, modification time), updated from each
 * call's change set, so that listing files and resources answers at once, even while the session runs code.
 * Contents stay with the session and are read on demand (SessionManager.readFile).
 */
import { z } from 'zod';
import type { FileChanges, FileLimits } from '../contract.js';
/** A file as tools and resources report it (the same shape as a resource link). */
export declare const fileRefSchema: z.ZodObject<{
    uri: z.ZodString;
    name: z.ZodString;
    path: z.ZodString;
    mime_type: z.ZodString;
    size: z.ZodNumber;
}, z.core.$strip>;
export type FileRef = z.infer<typeof fileRefSchema>;
export interface FileEntry {
    name: string;
    path: string;
    type: 'file' | 'directory';
    size: number;
    modified: string;
}
export declare class SessionFileIndex {
    private readonly sessionId;
    private readonly limits;
    private readonly files;
    private total;
    constructor(sessionId: string, limits: FileLimits);
    /**
     * Applies a change set; returns the written files as references. Security: the session is untrusted, so its
     * change set is checked against the file limits here too; a breach throws (the caller ends the session).
     */
    apply(changes: FileChanges): FileRef[];
    /** Size of a file; FILE_NOT_FOUND / NOT_A_FILE otherwise. */
    sizeOf(path: string): number;
    /** Entries under a workspace-relative directory ('' = the workspace), sorted, directories derived from paths. */
    list(dir: string, recursive: boolean): FileEntry[];
    /** Every file, as references (for resources/list). */
    allFiles(): FileRef[];
    ref(path: string, size: number): FileRef;
    private isDirectory;
    private fileEntry;
}
