/**
 * Which wheels in a directory the modern runtime may load: those named in the pinned pyodide-lock.json whose bytes
 * match the lock's sha256, checked when the server starts. Pyodide itself does not check: in Node it reads a local
 * wheel with fs and ignores the integrity argument (pyodide.asm.mjs, node_getBinaryResponse), so a tampered file
 * would otherwise be unpacked into every session. Hashing 40 MB (about the scientific stack) measured 66-133 ms.
 */
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { privateDirProblem, untrustedReason } from './user-cache.js';
/** Checks every lock wheel present in `dir` (ownership and mode too for a private directory). Never throws. */
export function checkWheelDir(dir, lock) {
    const check = { dir, verified: new Set(), refused: [] };
    if (dir.private) {
        // Security: another user who can write the cache could plant a wheel (code run in every session).
        const problem = privateDirProblem(dir.path, false, `the wheel cache ${dir.path}`);
        if (problem === 'missing')
            return check;
        if (problem) {
            check.refused.push(`${problem}; wheels there are not used (chmod 700 it, or delete it and fetch again)`);
            return check;
        }
    }
    for (const pkg of Object.values(lock.packages)) {
        const result = hashOwnFile(join(dir.path, pkg.file_name), dir.private);
        if (result === null)
            continue;
        if (result.problem)
            check.refused.push(result.problem);
        else if (result.sha256 === pkg.sha256.toLowerCase())
            check.verified.add(pkg.file_name);
        else
            check.refused.push(`${pkg.file_name} does not match its sha256 in pyodide-lock.json (tampered or corrupt); not loaded`);
    }
    return check;
}
/**
 * sha256 of a file read through one handle opened without following a symlink, after checking (for a private
 * directory) who owns it and who may write it. null when it does not exist.
 */
function hashOwnFile(path, ownOnly) {
    let fd;
    try {
        fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    }
    catch (error) {
        if (error.code === 'ENOENT')
            return null;
        return { problem: `${path}: ${error.message}; not loaded` };
    }
    try {
        const info = fstatSync(fd);
        if (!info.isFile())
            return { problem: `${path} is not a regular file; not loaded` };
        const untrusted = ownOnly ? untrustedReason(info, path) : null;
        if (untrusted)
            return { problem: `${untrusted}; not loaded` };
        const hash = createHash('sha256');
        const chunk = Buffer.allocUnsafe(1 << 20);
        for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0;)
            hash.update(chunk.subarray(0, n));
        return { sha256: hash.digest('hex') };
    }
    finally {
        closeSync(fd);
    }
}
