import { type Lockfile } from './distribution.js';
/** The scientific stack: the server's default `--preload` (src/server/config.ts) and what `npm run wheels:fetch` stores by default. */
export declare const DEFAULT_PRELOAD: string[];
/** One wheel to store: the lock entry fields needed to fetch and verify it. */
export interface WheelEntry {
    name: string;
    version: string;
    file_name: string;
    sha256: string;
}
/** Contents of wheels/manifest.json (always generated from the lock, never hand-edited). */
export interface WheelManifest {
    pyodide_version: string;
    python: string;
    preload: string[];
    /** Closure of `preload`, dependencies before dependents. */
    wheels: WheelEntry[];
}
export interface FetchOptions {
    /** A local directory or an http(s)/file URL whose base holds the wheel files by their lock file names. */
    from: string;
    /** Real manifest from buildManifest, or any object of the same shape (tests use synthetic ones). */
    manifest: Pick<WheelManifest, 'wheels'>;
    destDir: string;
    log?: (line: string) => void;
    /** An http(s) mirror must start answering each request within this many ms (default 10 000). */
    connectTimeoutMs?: number;
}
export interface FetchSummary {
    fetched: number;
    skipped: number;
    failed: {
        file_name: string;
        reason: string;
    }[];
}
/** How long an http(s) mirror may take to start answering, by default. */
export declare const DEFAULT_CONNECT_TIMEOUT_MS = 10000;
/**
 * Manifest for `names` and their dependency closure, from a pyodide-lock.json.
 * Throws wheelClosure's TypeError for a package the lock does not know.
 */
export declare function buildManifest(lock: Lockfile, names: string[], pyodideVersion?: string): WheelManifest;
/** Hex sha256 of a file, streamed so that large wheels are never held in memory. */
export declare function sha256File(path: string): Promise<string>;
/** Whether the file at `path` has the given sha256 (hex, case-insensitive). */
export declare function verifyFile(path: string, sha256: string): Promise<boolean>;
/**
 * Copies every wheel of `manifest` from `from` into `destDir`. Each file is written under a temporary
 * name, hashed, and renamed into place only if its sha256 matches, so destDir never holds an unverified
 * wheel under its real name. Present files with the right hash are skipped; present files with a wrong
 * hash are deleted and fetched again. Per-file problems are returned in `failed`, not thrown.
 */
export declare function fetchWheels({ from, manifest, destDir, log, connectTimeoutMs, }: FetchOptions): Promise<FetchSummary>;
/** `from` as a base URL; without a trailing slash `new URL(name, base)` would drop its last path segment. */
export declare function baseUrl(from: string): string;
/** Whether `from` names an http(s) source (anything else is a directory). */
export declare function isUrl(from: string): boolean;
/**
 * Fetches `url`, giving up when no response has started within `timeoutMs` (a machine without network fails in
 * that time, not after the platform's own connect timeout). The body then streams without a time limit.
 */
export declare function fetchWithConnectTimeout(url: URL, timeoutMs: number, method?: string): Promise<Response>;
