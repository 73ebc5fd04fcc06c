/**
 * The server's view of one session's files: metadata only (path, size, modification time), updated from each
 * call's change set, so that listing files and resources answers at once, even while the session runs code.
 * Contents stay with the session and are read on demand (SessionManager.readFile).
 */
import { z } from 'zod';
import { PyodideMcpError } from '../errors.js';
import { mimeType, sessionUri } from '../sandbox/host-paths.js';
/** A file as tools and resources report it (the same shape as a resource link). */
export const fileRefSchema = z.object({ uri: z.string(), name: z.string(), path: z.string(), mime_type: z.string(), size: z.number() });
export class SessionFileIndex {
    sessionId;
    limits;
    files = new Map();
    total = 0;
    constructor(sessionId, limits) {
        this.sessionId = sessionId;
        this.limits = limits;
    }
    /**
     * Applies a change set; returns the written files as references. Security: the session is untrusted, so its
     * change set is checked against the file limits here too; a breach throws (the caller ends the session).
     */
    apply(changes) {
        for (const path of changes.deleted) {
            this.total -= this.files.get(path)?.size ?? 0;
            this.files.delete(path);
        }
        for (const file of changes.written) {
            this.total += file.size - (this.files.get(file.path)?.size ?? 0);
            this.files.set(file.path, { size: file.size, mtimeMs: file.mtimeMs });
        }
        const over = changes.written.find((file) => file.size > this.limits.maxFileBytes) !== undefined
            ? `a file above --max-file-bytes (${this.limits.maxFileBytes})`
            : this.total > this.limits.maxSessionBytes
                ? `${this.total} bytes, above --max-session-bytes (${this.limits.maxSessionBytes})`
                : this.files.size > this.limits.maxFiles
                    ? `${this.files.size} files, above --max-files (${this.limits.maxFiles})`
                    : null;
        if (over)
            throw new PyodideMcpError('QUOTA_EXCEEDED', `The session's workspace reached ${over} by going around the file system.`);
        return changes.written.map((file) => this.ref(file.path, file.size));
    }
    /** Size of a file; FILE_NOT_FOUND / NOT_A_FILE otherwise. */
    sizeOf(path) {
        const file = this.files.get(path);
        if (file)
            return file.size;
        if (path === '' || this.isDirectory(path))
            throw new PyodideMcpError('NOT_A_FILE', `${JSON.stringify(path)} is a directory.`);
        throw new PyodideMcpError('FILE_NOT_FOUND', `${JSON.stringify(path)} does not exist in the session workspace (list_files shows what does).`);
    }
    /** Entries under a workspace-relative directory ('' = the workspace), sorted, directories derived from paths. */
    list(dir, recursive) {
        const file = this.files.get(dir);
        if (file)
            return [this.fileEntry(dir, file)];
        if (dir !== '' && !this.isDirectory(dir))
            throw new PyodideMcpError('FILE_NOT_FOUND', `${JSON.stringify(dir)} does not exist in the session workspace.`);
        const prefix = dir === '' ? '' : `${dir}/`;
        const entries = new Map();
        for (const [path, info] of this.files) {
            if (!path.startsWith(prefix))
                continue;
            const parts = path.slice(prefix.length).split('/');
            const depth = recursive ? parts.length : 1;
            for (let i = 1; i <= depth; i++) {
                const sub = prefix + parts.slice(0, i).join('/');
                if (i === parts.length)
                    entries.set(sub, this.fileEntry(sub, info));
                else if (!entries.has(sub))
                    entries.set(sub, { name: parts[i - 1], path: sub, type: 'directory', size: 0, modified: new Date(info.mtimeMs).toISOString() });
            }
        }
        return [...entries.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    }
    /** Every file, as references (for resources/list). */
    allFiles() {
        return [...this.files].map(([path, info]) => this.ref(path, info.size));
    }
    ref(path, size) {
        return { uri: sessionUri(this.sessionId, path), name: path.slice(path.lastIndexOf('/') + 1), path, mime_type: mimeType(path), size };
    }
    isDirectory(dir) {
        const prefix = `${dir}/`;
        for (const path of this.files.keys())
            if (path.startsWith(prefix))
                return true;
        return false;
    }
    fileEntry(path, info) {
        return {
            name: path.slice(path.lastIndexOf('/') + 1),
            path,
            type: 'file',
            size: info.size,
            modified: new Date(info.mtimeMs).toISOString(),
        };
    }
}
