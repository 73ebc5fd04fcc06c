/**
 * Turns a user-given session path into a normalised workspace-relative POSIX path ('' is the workspace
 * itself). Refuses null bytes, backslashes, `..` that climbs out, and absolute paths outside the
 * workspace, with an error that says which rule was broken.
 */
export declare function sessionPath(input: string): string;
/** `session://<id>/<path>` with each path segment percent-encoded. */
export declare function sessionUri(sessionId: string, path: string): string;
/** The MIME type for a file name; unknown kinds are application/octet-stream. */
export declare function mimeType(path: string): string;
/** True when bytes look like text: valid UTF-8 with no NUL. */
export declare function looksLikeText(data: Uint8Array): boolean;
/** The rule a host path breaks by being a credential file, or null. */
export declare function sensitiveReason(realPath: string): string | null;
/** Where host files may be read from or written to. */
export interface HostAccess {
    /** Allowed directories; none (and not allowAll) means host file access is off. */
    allowDirs: string[];
    allowAll: boolean;
}
/**
 * Resolves a host path for upload (must exist) or download (may not exist yet: its parent must), with
 * symlinks resolved first, then checks it against the allow-list, the system directories and the
 * sensitive-file rules. Returns the real path to use; open it with {@link readHostFile} or
 * {@link writeHostFile}, which check again what was opened.
 */
export declare function checkHostPath(input: string, access: HostAccess, purpose: 'read' | 'write'): string;
/**
 * Reads the regular file at `real` (a path returned by {@link checkHostPath} for 'read'), at most
 * `maxBytes` bytes. What is read is what was checked: the file is opened without following a symlink,
 * the open handle must be a regular file at the checked path, and the bytes come from that handle.
 */
export declare function readHostFile(real: string, maxBytes: number): Promise<Uint8Array>;
/**
 * Writes `data` to `real` (a path returned by {@link checkHostPath} for 'write'), creating a regular
 * file, or replacing one only when `overwrite` is true. Nothing but a regular file at the checked path is
 * ever truncated or written: the file is opened without O_TRUNC and without following a symlink, the
 * handle is checked, and only then truncated and written.
 */
export declare function writeHostFile(real: string, data: Uint8Array, overwrite: boolean): Promise<void>;
/** True when `path` is `dir` or below it (no prefix tricks: /data2 is not inside /data). */
export declare function isInside(path: string, dir: string): boolean;
