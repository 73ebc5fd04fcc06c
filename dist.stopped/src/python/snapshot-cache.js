/**
 * On-disk cache of Pyodide memory snapshots for the modern runtime: booting from a snapshot takes
 * about 0.45 s instead of 3.5 s (bench: "create_session, cold"). A snapshot is keyed by everything
 * that shapes the interpreter state it holds (Pyodide version, the harness source, the snapshot
 * recipe), stored with its sha256, and checked before use: a corrupt, partial or stale file is
 * deleted and rebuilt, never trusted.
 *
 * A snapshot is interpreter memory the server boots from, so whoever can write it runs code in every
 * session. The directory must therefore be this user's and writable by no one else (it is created 0700);
 * a snapshot or checksum file that another user owns or could write is deleted and rebuilt.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { privateDirProblem, untrustedReason } from './user-cache.js';
/** Bump when what the worker puts into a snapshot changes. */
const RECIPE = 1;
export class SnapshotCache {
    dir;
    log;
    key;
    /** Set once the directory was found untrustworthy: snapshots are then off for this cache. */
    dirRefused = false;
    /**
     * @param dir where snapshots live (created on demand)
     * @param identity the inputs that make two snapshots interchangeable (e.g. pyodide version, harness source)
     */
    constructor(dir, identity, log) {
        this.dir = dir;
        this.log = log;
        this.key = createHash('sha256')
            .update(JSON.stringify({ recipe: RECIPE, identity }))
            .digest('hex')
            .slice(0, 32);
    }
    get file() {
        return join(this.dir, `modern-${this.key}.snapshot`);
    }
    /** The snapshot bytes in shared memory (so every worker reads the same copy), or null if none is valid. */
    load() {
        if (!this.usableDir(false))
            return null;
        const data = this.readOwn(this.file);
        const checksum = data && this.readOwn(`${this.file}.sha256`);
        if (!data || !checksum)
            return null;
        const expected = checksum.toString('utf8').trim();
        if (createHash('sha256').update(data).digest('hex') !== expected) {
            this.log(`snapshot ${this.file} does not match its checksum; deleting it, a new one will be built`);
            this.discard();
            return null;
        }
        const shared = new Uint8Array(new SharedArrayBuffer(data.byteLength));
        shared.set(data);
        return shared;
    }
    /**
     * Writes a snapshot atomically (temp file + rename, mode 0600), checksum last so a half-written pair is
     * never valid.
     */
    store(data) {
        if (!this.usableDir(true))
            return;
        try {
            const put = (path, bytes) => {
                const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
                writeFileSync(temp, bytes, { mode: 0o600, flag: 'wx' });
                renameSync(temp, path);
            };
            put(this.file, data);
            put(`${this.file}.sha256`, createHash('sha256').update(data).digest('hex'));
            this.log(`snapshot stored: ${this.file} (${(data.byteLength / 2 ** 20).toFixed(1)} MB)`);
        }
        catch (error) {
            this.log(`could not store the snapshot in ${this.dir}: ${error.message}`);
        }
    }
    /**
     * Creates the directory (mode 0700) when asked, and checks that only this user can write it. Says why
     * once and turns snapshots off when not; a missing directory when not creating is simply empty.
     */
    usableDir(create) {
        if (this.dirRefused)
            return false;
        // Security: another user who can write here could plant a snapshot (code run in every session).
        const problem = privateDirProblem(this.dir, create, `the snapshot directory ${this.dir}`);
        if (problem === null)
            return true;
        if (problem === 'missing')
            return false;
        this.dirRefused = true;
        this.log(`memory snapshots are off: ${problem}. Point --snapshot-dir at a directory only you can write (e.g. chmod 700), or pass --snapshot-dir none.`);
        return false;
    }
    /**
     * The bytes of one of this cache's files, or null when it is missing or not trustworthy (then it is
     * deleted, with the rest of the pair, and rebuilt). Checked and read through one handle, without
     * following a symlink.
     */
    readOwn(path) {
        let fd;
        try {
            fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
        }
        catch (error) {
            if (error.code === 'ENOENT')
                return null;
            this.log(`ignoring the snapshot file ${path}: ${error.message}; it will be rebuilt`);
            this.discard();
            return null;
        }
        try {
            const info = fstatSync(fd);
            // Security: a file another user owns or could write may hold a planted snapshot and its checksum.
            const problem = info.isFile() ? untrustedReason(info, path) : `${path} is not a regular file`;
            if (problem) {
                this.log(`ignoring the memory snapshot: ${problem}; deleting it, a new one will be built`);
                this.discard();
                return null;
            }
            return readFileSync(fd);
        }
        finally {
            closeSync(fd);
        }
    }
    /** Removes the snapshot (e.g. after a worker failed to boot from it). */
    discard() {
        rmSync(this.file, { force: true });
        rmSync(`${this.file}.sha256`, { force: true });
    }
}
