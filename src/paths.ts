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
export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Entry of a session worker thread. */
export const SESSION_WORKER_URL = new URL('../workers/thread/session.worker.js', import.meta.url);

/** Entry of a session process (the default isolation): hosts one session worker thread. */
export const SESSION_PROCESS_PATH = fileURLToPath(new URL('./supervisor/session-process.js', import.meta.url));

/** The modern runtime adapter and the Python it runs at boot: their source shapes what a memory snapshot holds, so snapshots are keyed by it. */
export const MODERN_BOOT_CODE_URLS = [
  new URL('../workers/thread/runtime/modern.js', import.meta.url),
  new URL('../workers/thread/runtime/package-unpack.js', import.meta.url),
];

/** The Python harness's entry module; its sibling modules are loaded with it (workers/thread/python-modules.ts). */
export const HARNESS_PATH = fileURLToPath(new URL('../../workers/python/harness.py', import.meta.url));

/** The wheels shipped with the package (the modern runtime's default wheel directory). */
export const PACKAGE_WHEELS_DIR = fileURLToPath(new URL('../../wheels/', import.meta.url));
