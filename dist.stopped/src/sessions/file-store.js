/**
 * A session's file contents outside its interpreter: the supervisor keeps a copy of every workspace file (a memfs
 * volume) so that files can be read while the session runs code. It lives in the session process (process
 * isolation), so what a session writes grows that process, which the memory watchdog bounds, never the server.
 * Every change set is checked against the session's file limits before anything is stored.
 */
import { Volume } from 'memfs';
/** A change set that breaks the session's file limits (only code that bypasses the file system can send one). */
export class QuotaViolation extends Error {
}
export class SessionFileStore {
    limits;
    volume = new Volume();
    /** path → size, to check the limits without touching the volume. */
    sizes = new Map();
    total = 0;
    constructor(limits) {
        this.limits = limits;
    }
    /**
     * Stores a change set from the worker and returns it without the bytes. Throws QuotaViolation (storing
     * nothing) when the result would exceed a limit.
     */
    apply(changes) {
        if (changes.violation)
            throw new QuotaViolation(changes.violation);
        const sizes = new Map(this.sizes);
        let total = this.total;
        for (const path of changes.deleted) {
            total -= sizes.get(path) ?? 0;
            sizes.delete(path);
        }
        for (const file of changes.written) {
            if (file.data.byteLength > this.limits.maxFileBytes) {
                throw new QuotaViolation(`${file.path} holds ${file.data.byteLength} bytes, above --max-file-bytes (${this.limits.maxFileBytes})`);
            }
            total += file.data.byteLength - (sizes.get(file.path) ?? 0);
            sizes.set(file.path, file.data.byteLength);
        }
        if (total > this.limits.maxSessionBytes)
            throw new QuotaViolation(`the workspace holds ${total} bytes, above --max-session-bytes (${this.limits.maxSessionBytes})`);
        if (sizes.size > this.limits.maxFiles)
            throw new QuotaViolation(`the workspace holds ${sizes.size} files, above --max-files (${this.limits.maxFiles})`);
        for (const path of changes.deleted)
            this.volume.rmSync(`/${path}`, { force: true });
        for (const file of changes.written) {
            const abs = `/${file.path}`;
            this.volume.mkdirSync(abs.slice(0, abs.lastIndexOf('/')) || '/', { recursive: true });
            this.volume.writeFileSync(abs, file.data);
        }
        this.sizes.clear();
        for (const [path, size] of sizes)
            this.sizes.set(path, size);
        this.total = total;
        // Sizes as stored here, not as the worker claims.
        return {
            written: changes.written.map(({ path, data, mtimeMs }) => ({ path, size: data.byteLength, mtimeMs })),
            deleted: changes.deleted,
        };
    }
    /** Up to `length` bytes of a file from `offset`, and its size; throws if there is no such file. */
    read(path, offset, length) {
        const size = this.sizes.get(path);
        if (size === undefined)
            throw new Error(`${JSON.stringify(path)} is not a file of this session`);
        const data = this.volume.readFileSync(`/${path}`);
        const start = Math.min(offset, size);
        return { data: new Uint8Array(data.subarray(start, Math.min(size, start + length))), size };
    }
}
