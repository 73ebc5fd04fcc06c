/**
 * The per-user cache (`$XDG_CACHE_HOME/pyodide-mcp`, else `~/.cache/pyodide-mcp`): memory snapshots and the modern
 * runtime's wheels. Whoever can write into it runs code in every session booted from it, so everything in it must
 * belong to this user and be writable by no one else; the checks for that live here, shared by both stores.
 */
import { mkdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
/**
 * The cache root. Security: a per-user directory (XDG base directories; a relative XDG_CACHE_HOME is ignored, as the
 * spec says), never a fixed name in a world-writable directory another user could create first.
 */
export function cacheRoot(env) {
    const home = env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : join(env.HOME || homedir(), '.cache');
    return join(home, 'pyodide-mcp');
}
/**
 * Where the wheels of one modern Pyodide version are cached: `<cache root>/<version>/wheels`. Keyed by version so
 * that every install of that version (npx reinstalls, global and local installs) shares one download.
 */
export function userWheelsDir(env, pyodideVersion) {
    return join(cacheRoot(env), pyodideVersion, 'wheels');
}
/** Why a file or directory cannot be trusted (another user owns it, or group/others may write it), or null. */
export function untrustedReason(info, what) {
    if (process.platform === 'win32')
        return null; // no POSIX owner and mode bits to check
    const uid = process.getuid?.();
    if (uid !== undefined && info.uid !== uid)
        return `${what} is owned by uid ${info.uid}, not by this user (uid ${uid})`;
    if ((info.mode & 0o022) !== 0)
        return `${what} is writable by group or others (mode ${(info.mode & 0o777).toString(8).padStart(3, '0')})`;
    return null;
}
/**
 * Why `dir` cannot hold cached code (not a directory, another user's, writable by others), or null when it can.
 * With `create`, missing directories are made first, mode 0700. A missing directory without `create` is 'missing'.
 * `what` names the directory in the reason.
 */
export function privateDirProblem(dir, create, what = dir) {
    try {
        if (create)
            mkdirSync(dir, { recursive: true, mode: 0o700 });
        const info = statSync(dir);
        return info.isDirectory() ? untrustedReason(info, what) : `${dir} is not a directory`;
    }
    catch (error) {
        if (error.code === 'ENOENT')
            return 'missing';
        return `cannot use ${dir}: ${error.message}`;
    }
}
