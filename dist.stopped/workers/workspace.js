import { WORKSPACE } from '../src/paths.js';
const O_APPEND = 0o2000;
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
/** Where package installs write (site-packages, shared libraries): the only files a trusted install may add unquota'd. */
const PACKAGE_DIRS = ['/lib/', '/usr/lib/'];
// Captured before user code exists: it can replace the realm's prototypes and run while the worker installs a package.
const startsWith = String.prototype.startsWith;
/**
 * The workspace holds more than the limits allow, which writes through the file system cannot do: its memory
 * was changed directly (e.g. a MEMFS node's `contents` and `usedBytes` set from Python). The session must end.
 */
export class WorkspaceViolation extends Error {
}
/** An error the file tools report as-is (the host turns it into a tool error with this code). */
export class WorkspaceError extends Error {
    code;
    constructor(code, message) {
        super(message);
        this.code = code;
    }
}
export class Workspace {
    FS;
    limits;
    errno;
    /** path → "mtime:size" at the last scan; a difference means the file was written. */
    seen = new Map();
    /** Files written while the quota was active, with the size each had when first touched. */
    tracked = new Map();
    trackedBytes = 0;
    /** Nesting of trusted installs (package loading, wheels) running now. */
    trustedDepth = 0;
    constructor(FS, limits, errno) {
        this.FS = FS;
        this.limits = limits;
        this.errno = errno;
        if (!this.exists(WORKSPACE))
            FS.mkdir(WORKSPACE);
        this.installQuota();
    }
    /**
     * Runs the worker's own package installation with the quota lifted for files under PACKAGE_DIRS only: a
     * package may be larger than a session's quota. Everything else stays enforced even meanwhile (user code
     * could still run during it, e.g. through a JavaScript prototype it replaced).
     */
    async trusted(work) {
        this.trustedDepth++;
        try {
            return await work();
        }
        finally {
            this.trustedDepth--;
        }
    }
    /** Is a write to this file exempt from the quota (a trusted install writing a package file)? */
    exempt(path) {
        if (this.trustedDepth === 0)
            return false;
        let abs;
        try {
            abs = path();
        }
        catch {
            return false;
        }
        for (let i = 0; i < PACKAGE_DIRS.length; i++)
            if (Reflect.apply(startsWith, abs, [PACKAGE_DIRS[i]]))
                return true;
        return false;
    }
    /**
     * Files written or changed in the workspace since the last call, with their bytes, and files deleted.
     * One walk of the workspace only (not the whole filesystem); an idle workspace costs a readdir.
     * Security: sizes are checked against the limits before any byte is read, and each file is read into a
     * buffer of the size that was checked; a workspace over the limits throws WorkspaceViolation.
     */
    collectChanges() {
        const now = new Map();
        const changed = [];
        let files = 0;
        let bytes = 0;
        const walk = (dir) => {
            for (const name of this.FS.readdir(dir)) {
                if (name === '.' || name === '..')
                    continue;
                const path = `${dir}/${name}`;
                const st = this.FS.lstat(path);
                if (this.FS.isDir(st.mode))
                    walk(path);
                else if (this.FS.isFile(st.mode)) {
                    const size = st.size;
                    files++;
                    bytes += size;
                    if (!(size >= 0 && size <= this.limits.maxFileBytes)) {
                        this.violation(`${relative(path)} holds ${size} bytes, over the limit of ${this.limits.maxFileBytes} bytes per file (--max-file-bytes)`);
                    }
                    if (bytes > this.limits.maxSessionBytes) {
                        this.violation(`its files hold more than ${this.limits.maxSessionBytes} bytes in all, the limit per session (--max-session-bytes)`);
                    }
                    if (files > this.limits.maxFiles)
                        this.violation(`it holds more than ${this.limits.maxFiles} files, the limit per session (--max-files)`);
                    const mtimeMs = +st.mtime;
                    const stamp = `${mtimeMs}:${size}`;
                    now.set(path, stamp);
                    if (this.seen.get(path) !== stamp)
                        changed.push({ path, size, mtimeMs });
                }
                // Symlinks are not mirrored: what they point at is either in the workspace already or not the user's file.
            }
        };
        walk(WORKSPACE);
        const written = changed.map(({ path, size, mtimeMs }) => {
            const data = this.readExactly(path, size);
            return { path: relative(path), size: data.byteLength, data, mtimeMs };
        });
        const deleted = [...this.seen.keys()].filter((path) => !now.has(path)).map(relative);
        this.seen = now;
        return { written, deleted };
    }
    violation(why) {
        throw new WorkspaceViolation(`The session's workspace exceeds its file quota: ${why}. Writes through the file system are refused at that limit, ` +
            `so the virtual file system's memory was changed directly; the session has ended.`);
    }
    /** At most `size` bytes of a file, into a buffer of that size (whatever the file's node claims meanwhile). */
    readExactly(path, size) {
        const data = new Uint8Array(size);
        const stream = this.FS.open(path, 0);
        try {
            let done = 0;
            while (done < size) {
                const n = this.FS.read(stream, data, done, size - done, done);
                if (!(n > 0))
                    break;
                done += n;
            }
            return done === size ? data : data.slice(0, done);
        }
        finally {
            this.FS.close(stream);
        }
    }
    /**
     * Resolves a workspace-relative path (already normalised by the host) to an absolute one, and checks
     * through Emscripten's own lookup that no symlink on the way leads outside the workspace.
     */
    resolve(rel) {
        const abs = rel === '' ? WORKSPACE : `${WORKSPACE}/${rel}`;
        // Security: resolve the deepest existing ancestor with symlinks followed; it must stay inside.
        let probe = abs;
        while (!this.exists(probe))
            probe = probe.slice(0, probe.lastIndexOf('/')) || '/';
        let real;
        try {
            real = this.FS.lookupPath(probe, { follow: true }).path;
        }
        catch {
            real = '(a dangling symlink)';
        }
        if (real !== WORKSPACE && !real.startsWith(WORKSPACE + '/')) {
            throw new WorkspaceError('PATH_DENIED', `${JSON.stringify(rel)} leads outside the session workspace (through a symlink); nothing was changed.`);
        }
        return abs;
    }
    /** Writes (or appends) a file, creating parent directories; refuses to overwrite unless asked. */
    writeFile(rel, data, options) {
        const abs = this.resolve(rel);
        if (this.exists(abs)) {
            if (this.FS.isDir(this.FS.stat(abs).mode))
                throw new WorkspaceError('NOT_A_FILE', `${JSON.stringify(rel)} is a directory.`);
            if (!options.append && !options.overwrite) {
                throw new WorkspaceError('FILE_EXISTS', `${JSON.stringify(rel)} already exists; pass overwrite: true to replace it, or append: true to add to it.`);
            }
        }
        this.mkdirs(abs.slice(0, abs.lastIndexOf('/')));
        try {
            this.FS.writeFile(abs, data, { flags: options.append ? 'a' : 'w' });
        }
        catch (error) {
            const code = error.errno;
            if (code === this.errno.EFBIG)
                throw this.quotaError(`a file may hold at most ${this.limits.maxFileBytes} bytes`);
            if (code === this.errno.ENOSPC)
                throw this.quotaError(`the session may store at most ${this.limits.maxSessionBytes} bytes (${this.trackedBytes} in use)`);
            if (code === this.errno.EDQUOT)
                throw this.quotaError(`the session may hold at most ${this.limits.maxFiles} files`);
            throw error;
        }
    }
    quotaError(why) {
        return new WorkspaceError('QUOTA_EXCEEDED', `Not written: ${why}. Files already stored are unchanged; delete some to make room.`);
    }
    /** Deletes a file or an empty directory. */
    delete(rel) {
        const abs = this.resolve(rel);
        if (!this.exists(abs))
            throw new WorkspaceError('FILE_NOT_FOUND', `${JSON.stringify(rel)} does not exist in the session workspace.`);
        if (this.FS.isDir(this.FS.lstat(abs).mode))
            this.FS.rmdir(abs);
        else
            this.FS.unlink(abs);
    }
    /** Reads a file (for run_file). */
    readText(rel) {
        const abs = this.resolve(rel);
        if (!this.exists(abs))
            throw new WorkspaceError('FILE_NOT_FOUND', `${JSON.stringify(rel)} does not exist in the session workspace.`);
        if (!this.FS.isFile(this.FS.stat(abs).mode))
            throw new WorkspaceError('NOT_A_FILE', `${JSON.stringify(rel)} is not a file.`);
        return new TextDecoder().decode(this.FS.readFile(abs));
    }
    exists(path) {
        try {
            this.FS.lstat(path);
            return true;
        }
        catch {
            return false;
        }
    }
    mkdirs(dir) {
        if (dir === '' || this.exists(dir))
            return;
        this.mkdirs(dir.slice(0, dir.lastIndexOf('/')));
        this.FS.mkdir(dir);
    }
    /**
     * Wraps Emscripten's FS.write, FS.mknod, FS.unlink and FS.truncate so that a file larger than
     * maxFileBytes (EFBIG), more than maxSessionBytes in all (ENOSPC), or more than maxFiles files (EDQUOT)
     * fails at the write itself. Files anywhere in the virtual FS count (a quota only on /workspace would
     * leave /tmp unbounded), package files written by a trusted install do not.
     * Why here: MEMFS keeps file contents in JS typed arrays outside the WebAssembly heap, so without this
     * a loop writing to a file could grow the worker's memory without bound.
     * Security: the wrapped functions are made read-only on FS, so user code cannot swap them out.
     */
    installQuota() {
        const FS = this.FS;
        const { errno, limits, tracked } = this;
        const fail = (code) => {
            throw new FS.ErrnoError(code);
        };
        const track = (node) => {
            if (!tracked.has(node))
                tracked.set(node, node.usedBytes ?? 0);
        };
        const getPath = FS.getPath;
        const pathOf = (node) => () => String(getPath.call(FS, node));
        const write = FS.write;
        FS.write = (stream, buffer, offset, length, position, canOwn) => {
            const node = stream.node;
            if (length > 0 && FS.isFile(node.mode) && !this.exempt(pathOf(node))) {
                const used = node.usedBytes ?? 0;
                const at = stream.flags & O_APPEND ? used : (position ?? stream.position);
                const grows = Math.max(0, at + length - used);
                if (at + length > limits.maxFileBytes)
                    fail(errno.EFBIG);
                if (this.trackedBytes + grows > limits.maxSessionBytes)
                    fail(errno.ENOSPC);
                track(node);
                const written = write.call(FS, stream, buffer, offset, length, position, canOwn);
                this.trackedBytes += (node.usedBytes ?? 0) - used;
                return written;
            }
            return write.call(FS, stream, buffer, offset, length, position, canOwn);
        };
        const mknod = FS.mknod;
        FS.mknod = (path, mode, dev) => {
            const counted = (mode & S_IFMT) === S_IFREG && !this.exempt(() => String(path));
            if (counted && tracked.size >= limits.maxFiles)
                fail(errno.EDQUOT);
            const node = mknod.call(FS, path, mode, dev);
            if (counted)
                track(node);
            return node;
        };
        const unlink = FS.unlink;
        FS.unlink = (path) => {
            let node;
            try {
                node = FS.lookupPath(path, { follow: false }).node;
            }
            catch {
                // unlink reports the missing file itself
            }
            unlink.call(FS, path);
            if (node && tracked.has(node)) {
                this.trackedBytes -= (node.usedBytes ?? 0) - tracked.get(node);
                tracked.delete(node);
            }
        };
        for (const name of ['truncate', 'ftruncate']) {
            const original = FS[name];
            FS[name] = (target, length) => {
                // Emscripten passes an fd (ftruncate), a path, or (inside FS.open with O_TRUNC) the node itself.
                const node = typeof target === 'number'
                    ? FS.getStream(target)?.node
                    : typeof target === 'string'
                        ? FS.lookupPath(target, { follow: true }).node
                        : target;
                const used = node?.usedBytes ?? 0;
                if (node && length > used && !this.exempt(pathOf(node))) {
                    if (length > limits.maxFileBytes)
                        fail(errno.EFBIG);
                    if (this.trackedBytes + length - used > limits.maxSessionBytes)
                        fail(errno.ENOSPC);
                    track(node);
                }
                const result = original.call(FS, target, length);
                if (node && tracked.has(node))
                    this.trackedBytes += (node.usedBytes ?? 0) - used;
                return result;
            };
        }
        for (const name of ['write', 'mknod', 'unlink', 'truncate', 'ftruncate']) {
            Object.defineProperty(FS, name, { value: FS[name], writable: false, configurable: false, enumerable: true });
        }
    }
}
function relative(abs) {
    return abs === WORKSPACE ? '' : abs.slice(WORKSPACE.length + 1);
}
