/**
 * The per-user cache (`$XDG_CACHE_HOME/pyodide-mcp`, else `~/.cache/pyodide-mcp`): memory snapshots and the modern
 * runtime's wheels. Whoever can write into it runs code in every session booted from it, so everything in it must
 * belong to this user and be writable by no one else; the checks for that live here, shared by both stores.
 */
import { type Stats } from 'node:fs';
/**
 * The cache root. Security: a per-user directory (XDG base directories; a relative XDG_CACHE_HOME is ignored, as the
 * spec says), never a fixed name in a world-writable directory another user could create first.
 */
export declare function cacheRoot(env: Record<string, string | undefined>): string;
/**
 * Where the wheels of one modern Pyodide version are cached: `<cache root>/<version>/wheels`. Keyed by version so
 * that every install of that version (npx reinstalls, global and local installs) shares one download.
 */
export declare function userWheelsDir(env: Record<string, string | undefined>, pyodideVersion: string): string;
/** Why a file or directory cannot be trusted (another user owns it, or group/others may write it), or null. */
export declare function untrustedReason(info: Stats, what: string): string | null;
/**
 * Why `dir` cannot hold cached code (not a directory, another user's, writable by others), or null when it can.
 * With `create`, missing directories are made first, mode 0700. A missing directory without `create` is 'missing'.
 * `what` names the directory in the reason.
 */
export declare function privateDirProblem(dir: string, create: boolean, what?: string): string | null;
