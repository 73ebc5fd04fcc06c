/**
 * Every file the host loads from this package, in one place. Paths are computed from this module's own
 * location (dist/src/paths.js), so they hold for a clone, a global install and an npx cache alike.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
/** Root of this package (the directory holding package.json). */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** This package's version, from its package.json. */
export function packageVersion() {
    return JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')).version;
}
/** Entry of a session worker thread. */
export const SESSION_WORKER_URL = new URL('../workers/session.worker.js', import.meta.url);
/** Entry of a session process (the default isolation): hosts one session worker thread. */
export const SESSION_PROCESS_PATH = fileURLToPath(new URL('../workers/session-process.js', import.meta.url));
/** The modern runtime adapter: its source shapes what a memory snapshot holds, so snapshots are keyed by it. */
export const MODERN_ADAPTER_URL = new URL('../workers/runtime/modern.js', import.meta.url);
/** The Python harness every session loads (not compiled: shipped as source). */
export const HARNESS_PATH = fileURLToPath(new URL('../../workers/harness.py', import.meta.url));
/** The wheels shipped with the package (the modern runtime's default wheel directory). */
export const PACKAGE_WHEELS_DIR = fileURLToPath(new URL('../../wheels/', import.meta.url));
/**
 * The workspace directory inside every session (Python's working directory); the harness names it too. Here, not
 * in the contract, because the worker imports it and must not load zod (its permission model reads only our code).
 */
export const WORKSPACE = '/workspace';
