/**
 * Sessions kept on disk across server restarts (--state-dir): the only module that reads or writes the state
 * directory. Each session has a directory named by its id holding
 *   meta.json     {version, created_at, last_used_at} (ms since the epoch)
 *   files.json    the workspace manifest: path → {blob, size, mtime_ms}
 *   blobs/<hash>  the bytes of each file (sha256 of its path: flat names, no directories taken from the session)
 *   cells.jsonl   the cells to replay, one JSON object a line, appended as they run; after a compaction its first
 *                 line is {dropped, unread}: the cells no longer in it, and the parts that could not be read
 * Every file but cells.jsonl is written atomically (temp file + rename). The log is bounded like the history
 * (--max-history-cells, and --max-history-bytes of its lines): past twice either bound it is compacted to its newest
 * cells, so it holds at most 2 × --max-history-bytes (plus one line) on disk. It is read back a chunk at a time,
 * whatever its size, keeping only the newest cells within the bounds; whatever cannot be read (a torn or corrupt
 * line, a line over MAX_LINE_BYTES, an unreadable file) is reported in the restore, never silently left out.
 *
 * Security: whoever can write the state directory can put code in cells.jsonl that a restore runs in a session, so
 * the directory must be this user's and writable by no one else (the checks of src/python/user-cache.ts), session
 * directories and files are created 0700/0600, session ids are checked against the exact id format before they are
 * used in a path, nothing is followed through a symbolic link (lstat, O_NOFOLLOW), and what is read back is bounded
 * by the file limits and the history bound, like a live session.
 */
import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { privateDirProblem, untrustedReason } from '../python/user-cache.js';
/** A session id as newSessionId() makes them: 24 random bytes in base64url, nothing else may become a path. */
export const SESSION_ID = /^[A-Za-z0-9_-]{32}$/;
const VERSION = 1;
/**
 * Longest line of cells.jsonl read back: a line holds a cell's source (code up to --max-code-chars, at most 10 M
 * characters, which JSON writes in at most 6 bytes each), so only a corrupt line is longer.
 */
const MAX_LINE_BYTES = 64 * 2 ** 20;
/** How much of cells.jsonl is read at a time. */
const READ_CHUNK = 2 ** 20;
/** Reasons kept in a compacted log's header (each names how many lines it covers). */
const MAX_UNREAD_REASONS = 20;
export class StateStore {
    dir;
    ttlMs;
    limits;
    maxCells;
    maxBytes;
    log;
    /** Appended lines per session since the log was last compacted (loaded lazily). */
    logLines = new Map();
    /** Manifests of the sessions written to in this process. */
    manifests = new Map();
    constructor(dir, ttlMs, limits, maxCells, maxBytes, log) {
        this.dir = dir;
        this.ttlMs = ttlMs;
        this.limits = limits;
        this.maxCells = maxCells;
        this.maxBytes = maxBytes;
        this.log = log;
    }
    /**
     * Opens (creating it 0700 if missing) the state directory. Throws a TypeError (a usage error) when it cannot be
     * trusted: another user's, or writable by group or others.
     */
    static open(dir, options) {
        const problem = privateDirProblem(dir, true, `--state-dir ${dir}`);
        if (problem) {
            throw new TypeError(`Cannot use --state-dir: ${problem}. Whoever can write it can put code into the sessions restored from it; use a directory only this user can write (chmod 700).`);
        }
        return new StateStore(dir, options.ttlMs, options.limits, options.maxCells, options.maxBytes, options.log);
    }
    /** Starts keeping a new session (or one being restored): its directory and meta.json. */
    async create(id, createdAt, lastUsedAt = createdAt) {
        const dir = this.sessionDir(id);
        await mkdir(join(dir, 'blobs'), { recursive: true, mode: 0o700 });
        await this.checkDir(dir);
        await this.writeMeta(id, { version: VERSION, created_at: createdAt, last_used_at: lastUsedAt });
    }
    /** Records the last use of a session (its on-disk TTL runs from there). */
    async touch(id, createdAt, lastUsedAt) {
        await this.writeMeta(id, { version: VERSION, created_at: createdAt, last_used_at: lastUsedAt });
    }
    /** Whether a (not expired) session with this id is on disk. Expired ones are deleted on the way. */
    async has(id, now = Date.now()) {
        if (!SESSION_ID.test(id))
            return 'no';
        const meta = await this.readMeta(id);
        if (!meta)
            return 'no';
        if (now - meta.last_used_at >= this.ttlMs) {
            await this.remove(id);
            return 'expired';
        }
        return 'yes';
    }
    /** Sessions on disk and not expired, except those in `live`; expired ones are deleted. */
    async list(live, now = Date.now()) {
        const found = [];
        for (const [id, meta] of await this.unexpired(live, now)) {
            const { log } = await this.readLog(id);
            found.push({ id, createdAt: meta.created_at, lastUsedAt: meta.last_used_at, cells: log.length });
        }
        return found.sort((a, b) => a.lastUsedAt - b.lastUsedAt);
    }
    /** Deletes the sessions (except those in `live`) whose TTL ran out while the server was down, or since. */
    async sweep(live, now = Date.now()) {
        await this.unexpired(live, now);
    }
    /** The sessions on disk not in `live` and not expired, with their meta; expired ones are deleted on the way. */
    async unexpired(live, now) {
        const found = [];
        for (const id of await this.ids()) {
            if (live.has(id))
                continue;
            const meta = await this.readMeta(id);
            if (!meta)
                continue;
            if (now - meta.last_used_at >= this.ttlMs) {
                await this.remove(id);
                this.log(`saved session ${id} expired`);
                continue;
            }
            found.push([id, meta]);
        }
        return found;
    }
    /** Reads a session back for a restore, within the file limits; null when there is none. */
    async load(id) {
        if (!SESSION_ID.test(id))
            return null;
        const meta = await this.readMeta(id);
        if (!meta)
            return null;
        const manifest = await this.readManifest(id);
        const files = [];
        const skippedFiles = [];
        let total = 0;
        for (const [path, entry] of manifest) {
            const data = await this.readRegular(join(this.sessionDir(id), 'blobs', entry.blob), this.limits.maxFileBytes);
            if (data === null ||
                entry.blob !== blobName(path) ||
                files.length >= this.limits.maxFiles ||
                total + data.byteLength > this.limits.maxSessionBytes) {
                skippedFiles.push(path);
                continue;
            }
            total += data.byteLength;
            files.push({ path, data });
        }
        const { log, dropped, unread } = await this.readLog(id);
        return { id, createdAt: meta.created_at, lastUsedAt: meta.last_used_at, cells: log.length, files, skippedFiles, log, dropped, unread };
    }
    /** Records a call's change set: the bytes of the files it wrote, and the files it deleted. */
    async applyFiles(id, written, deleted) {
        if (written.length === 0 && deleted.length === 0)
            return;
        const dir = this.sessionDir(id);
        const manifest = await this.manifestOf(id);
        for (const path of deleted) {
            const entry = manifest.get(path);
            if (!entry)
                continue;
            manifest.delete(path);
            await unlink(join(dir, 'blobs', entry.blob)).catch(() => { });
        }
        for (const file of written) {
            const blob = blobName(file.path);
            await writeAtomic(join(dir, 'blobs'), blob, file.data);
            manifest.set(file.path, { blob, size: file.data.byteLength, mtime_ms: Date.now() });
        }
        // Object.fromEntries defines own properties, so a `__proto__` path is written like any other.
        await writeAtomic(dir, 'files.json', JSON.stringify(Object.fromEntries(manifest)));
    }
    /** Appends a cell to the replay log, compacting it to the history bounds now and then. */
    async appendCell(id, cell) {
        const dir = this.sessionDir(id);
        const line = JSON.stringify({ cell }) + '\n';
        // O_APPEND without following a link: appendFile would follow one. Read too, to look at the last byte.
        const handle = await open(join(dir, 'cells.jsonl'), constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
        let size;
        try {
            // A line torn by a crash mid-append is ended first, so that it costs only its own cell, not this one too.
            const before = (await handle.stat()).size;
            const last = Buffer.alloc(1);
            if (before > 0 && (await handle.read(last, 0, 1, before - 1)).bytesRead === 1 && last[0] !== 0x0a)
                await handle.appendFile('\n');
            await handle.appendFile(line);
            size = (await handle.stat()).size;
        }
        finally {
            await handle.close();
        }
        let lines = this.logLines.get(id);
        if (lines === undefined)
            lines = (await this.readLog(id)).log.length;
        else
            lines++;
        this.logLines.set(id, lines);
        // Past twice a bound, so that a compaction (which rewrites up to one bound) comes once per bound appended.
        if (lines > Math.max(2 * this.maxCells, this.maxCells + 50) || size > 2 * this.maxBytes)
            await this.compact(id);
    }
    /** Empties the replay log (reset_session: a fresh namespace replays nothing before it). */
    async clearCells(id) {
        await writeAtomic(this.sessionDir(id), 'cells.jsonl', '');
        this.logLines.set(id, 0);
    }
    /** Deletes a session's state (close_session, expiry, a session that died). */
    async remove(id) {
        if (!SESSION_ID.test(id))
            return;
        this.manifests.delete(id);
        this.logLines.delete(id);
        await rm(this.sessionDir(id), { recursive: true, force: true, maxRetries: 3 });
    }
    /**
     * Rewrites the log as its newest cells within the bounds, after a header line that keeps the count of the cells
     * dropped and what could not be read (a later restore reports both).
     */
    async compact(id) {
        const { log, dropped, unread } = await this.readLog(id);
        const header = JSON.stringify({ dropped, unread: unread.slice(0, MAX_UNREAD_REASONS).map((reason) => reason.slice(0, 300)) });
        const text = [header, ...log.map((cell) => JSON.stringify({ cell }))].join('\n') + '\n';
        await writeAtomic(this.sessionDir(id), 'cells.jsonl', text);
        this.logLines.set(id, log.length);
        this.log(`session ${id}: cell log compacted to its last ${log.length} cells (${dropped} dropped in all)` +
            (unread.length > 0 ? `; not readable: ${unread.join('; ')}` : ''));
    }
    /**
     * The replay log: its newest cells within --max-history-cells and --max-history-bytes (of their lines), how many
     * before them are gone, and what could not be read. Read a chunk at a time: the memory it takes is bounded by the
     * bounds, not by the file.
     */
    async readLog(id) {
        const path = join(this.sessionDir(id), 'cells.jsonl');
        const window = new LogWindow(this.maxCells, this.maxBytes);
        const unread = new Map();
        const count = (reason) => unread.set(reason, (unread.get(reason) ?? 0) + 1);
        let handle;
        try {
            handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
        }
        catch (error) {
            const code = error.code;
            if (code === 'ENOENT')
                return { log: [], dropped: 0, unread: [] };
            return { log: [], dropped: 0, unread: [`cells.jsonl could not be opened (${code === 'ELOOP' ? 'a symbolic link' : code})`] };
        }
        const notes = [];
        try {
            const info = await handle.stat();
            const problem = info.isFile() ? untrustedReason(info, path) : 'not a regular file';
            if (problem)
                return { log: [], dropped: 0, unread: [`cells.jsonl was not read: ${problem}`] };
            for await (const line of logLines(handle, MAX_LINE_BYTES)) {
                if (typeof line !== 'string') {
                    count(line.torn ? 'torn at the end of the log (a crash while it was written)' : `longer than ${MAX_LINE_BYTES} bytes`);
                    continue;
                }
                if (line === '')
                    continue;
                let parsed;
                try {
                    parsed = JSON.parse(line);
                }
                catch {
                    count('not JSON (torn by a crash, or corrupt)');
                    continue;
                }
                if (parsed?.cell && isLoggedCell(parsed.cell)) {
                    window.push(parsed.cell, Buffer.byteLength(line) + 1);
                }
                else if (typeof parsed?.dropped === 'number' && Number.isSafeInteger(parsed.dropped) && parsed.dropped >= 0) {
                    window.dropped += parsed.dropped;
                    if (Array.isArray(parsed.unread))
                        notes.push(...parsed.unread.filter((r) => typeof r === 'string').slice(0, MAX_UNREAD_REASONS));
                }
                else {
                    count('not a cell');
                }
            }
        }
        catch (error) {
            count(`a read error (${error.message})`);
        }
        finally {
            await handle.close();
        }
        const reasons = [...notes, ...[...unread].map(([reason, lines]) => `${lines} line${lines === 1 ? '' : 's'}: ${reason}`)];
        return { log: window.cells(), dropped: window.dropped, unread: reasons };
    }
    async manifestOf(id) {
        let manifest = this.manifests.get(id);
        if (!manifest) {
            manifest = await this.readManifest(id);
            this.manifests.set(id, manifest);
        }
        return manifest;
    }
    async readManifest(id) {
        const manifest = new Map();
        const data = await this.readRegular(join(this.sessionDir(id), 'files.json'), 64 * 2 ** 20);
        if (!data)
            return manifest;
        try {
            // JSON.parse defines own properties, `__proto__` included; Object.entries lists them all.
            const parsed = JSON.parse(Buffer.from(data).toString('utf8'));
            if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
                return manifest;
            for (const [path, entry] of Object.entries(parsed)) {
                if (validPath(path) && typeof entry?.blob === 'string' && /^[0-9a-f]{64}$/.test(entry.blob))
                    manifest.set(path, entry);
            }
        }
        catch {
            manifest.clear();
        }
        return manifest;
    }
    async readMeta(id) {
        try {
            await this.checkDir(this.sessionDir(id));
        }
        catch (error) {
            if (error.code !== 'ENOENT')
                this.log(`state of session ${id} ignored: ${error.message}`);
            return null;
        }
        const data = await this.readRegular(join(this.sessionDir(id), 'meta.json'), 64 * 1024);
        if (!data)
            return null;
        try {
            const meta = JSON.parse(Buffer.from(data).toString('utf8'));
            if (meta.version !== VERSION || !Number.isFinite(meta.created_at) || !Number.isFinite(meta.last_used_at))
                return null;
            return meta;
        }
        catch {
            return null;
        }
    }
    async writeMeta(id, meta) {
        await writeAtomic(this.sessionDir(id), 'meta.json', JSON.stringify(meta));
    }
    /** The session ids in the state directory (other names are ignored). */
    async ids() {
        try {
            return (await readdir(this.dir)).filter((name) => SESSION_ID.test(name));
        }
        catch (error) {
            this.log(`cannot read --state-dir ${this.dir}: ${error.message}`);
            return [];
        }
    }
    sessionDir(id) {
        // Security: the id becomes a path component only in its exact format (no '/', no '..').
        if (!SESSION_ID.test(id))
            throw new Error(`not a session id: ${JSON.stringify(id.slice(0, 40))}`);
        return join(this.dir, id);
    }
    /** A session directory must be a real directory (not a link), this user's, writable by no one else. */
    async checkDir(dir) {
        const info = await lstat(dir);
        if (!info.isDirectory())
            throw new Error(`${dir} is not a directory`);
        const problem = untrustedReason(info, dir);
        if (problem)
            throw new Error(problem);
    }
    /** A regular file's bytes, up to `max` (null when missing, a link, larger, another user's or writable by others). */
    async readRegular(path, max) {
        let handle;
        try {
            handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
        }
        catch {
            return null;
        }
        try {
            const info = await handle.stat();
            if (!info.isFile() || info.size > max || untrustedReason(info, path))
                return null;
            return new Uint8Array(await handle.readFile());
        }
        catch {
            return null;
        }
        finally {
            await handle.close();
        }
    }
}
/** The blob name of a workspace path: flat, fixed length, no part of the path reaches the file system. */
function blobName(path) {
    return createHash('sha256').update(path).digest('hex');
}
function validPath(p) {
    return p.length > 0 && p.length <= 4096 && !p.includes('\0') && !p.startsWith('/') && !p.split('/').includes('..');
}
/**
 * The newest cells of a log as it is read: at most `maxCells`, and lines of at most `maxBytes` in all (the newest
 * cell always stays, as in the history); older ones are counted in `dropped`.
 */
class LogWindow {
    maxCells;
    maxBytes;
    kept = [];
    head = 0;
    total = 0;
    dropped = 0;
    constructor(maxCells, maxBytes) {
        this.maxCells = maxCells;
        this.maxBytes = maxBytes;
    }
    push(cell, bytes) {
        this.kept.push({ cell, bytes });
        this.total += bytes;
        while (this.kept.length - this.head > this.maxCells || (this.kept.length - this.head > 1 && this.total > this.maxBytes)) {
            this.total -= this.kept[this.head].bytes;
            this.head++;
            this.dropped++;
        }
        // Shifting one by one would be quadratic over a long log: the array is trimmed now and then instead.
        if (this.head > 1024 && this.head * 2 > this.kept.length) {
            this.kept.splice(0, this.head);
            this.head = 0;
        }
    }
    cells() {
        return this.kept.slice(this.head).map((entry) => entry.cell);
    }
}
/**
 * The lines of a file, read a chunk at a time: strings (without their newline), or a marker for a line longer than
 * `maxLine` (skipped without being held) and for a last line without its newline (torn by a crash mid-append).
 */
async function* logLines(handle, maxLine) {
    const chunk = Buffer.allocUnsafe(READ_CHUNK);
    let parts = [];
    let length = 0;
    let tooLong = false;
    for (;;) {
        const { bytesRead } = await handle.read(chunk, 0, READ_CHUNK, null);
        if (bytesRead === 0)
            break;
        const view = chunk.subarray(0, bytesRead);
        let start = 0;
        while (start < bytesRead) {
            const newline = view.indexOf(0x0a, start);
            const end = newline === -1 ? bytesRead : newline;
            if (!tooLong && length + (end - start) > maxLine) {
                tooLong = true;
                parts = [];
            }
            if (!tooLong) {
                parts.push(Buffer.from(view.subarray(start, end)));
                length += end - start;
            }
            if (newline === -1)
                break;
            yield tooLong ? { torn: false } : Buffer.concat(parts, length).toString('utf8');
            parts = [];
            length = 0;
            tooLong = false;
            start = newline + 1;
        }
    }
    if (length > 0 || tooLong)
        yield { torn: true };
}
function isLoggedCell(value) {
    const source = value.source;
    const okSource = typeof source === 'object' &&
        source !== null &&
        (typeof source.code === 'string' ||
            typeof source.path === 'string' ||
            (typeof source.call === 'object' && source.call !== null && typeof source.call.name === 'string'));
    return okSource && Number.isFinite(value.timeoutMs) && typeof value.completed === 'boolean' && Number.isFinite(value.executionCount);
}
/** Writes `name` in `dir` atomically: a fresh temp file (never through a link), then a rename over the old one. */
async function writeAtomic(dir, name, data) {
    const temp = join(dir, `.tmp-${randomBytes(8).toString('hex')}`);
    const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
        await handle.writeFile(data);
    }
    catch (error) {
        await handle.close();
        await unlink(temp).catch(() => { });
        throw error;
    }
    await handle.close();
    try {
        await rename(temp, join(dir, name));
    }
    catch (error) {
        await unlink(temp).catch(() => { });
        throw error;
    }
}
