/**
 * Pyodide's host-facing helpers and Emscripten's Node-backed file systems, removed (a layer of the lockdown,
 * lockdown.ts: part of "whatever Python can reach must hold nothing dangerous").
 *
 * Why: `pyodide_js` is reachable from Python, and some of its functions reach the host directly: mountNodeFS,
 * NODEFS/NODERAWFS (the real file system), NODESOCKFS and initializeNodeSockFS (real sockets), loadBinaryFile and
 * loadScript (files and code), and setStdout/setStderr/setStdin with no options, which rebuild Node-mode streams from
 * the realm's `process`. Each is replaced by a function that throws, or removed; the boot must not have mounted a
 * host file system anywhere.
 */
import type { PythonRuntime } from '../runtime/types.js';
import { refuse } from './sandbox-refusal.js';

/** Emscripten file-system types backed by the host (Node fs / sockets); removed from FS.filesystems. */
const HOST_FILESYSTEMS = ['NODEFS', 'NODERAWFS', 'NODESOCKFS'];

/** Pyodide helpers that touch the host (or load code); each is replaced by a function that throws. */
const HOST_HELPERS: Record<string, string[]> = {
  // setStdout/setStderr/setStdin with no options rebuild Node-mode streams from the realm's `process`, which user
  // code can replace: `{stdout: {fd: 1}}` then wrote raw bytes to the process's fd 1 (the MCP stream in thread
  // isolation) or fd 3 (a session process's channel). The harness captures output in Python; nothing needs these.
  api: ['mountNodeFS', 'mountNativeFS', 'setStdout', 'setStderr', 'setStdin'],
  internal: ['initializeNodeSockFS', 'loadBinaryFile', 'loadScript'],
};

/** What the rest of the lockdown needs from the runtime once its host helpers are gone. */
export interface RuntimeHandles {
  /** The Pyodide API object (`pyodide_js`). */
  api: Record<string, any>;
  /** The Emscripten Module (`pyodide._module`). */
  module: Record<string, any>;
  /** Emscripten's FS.ErrnoError: what the require guard's stubs throw, so that Python sees an OSError. */
  errnoError: (new (errno: number) => Error) | null;
}

/** Removes the host-facing helpers and file systems; throws (fail closed) if they cannot be reached. */
export function removeHostHelpers(runtime: PythonRuntime): RuntimeHandles {
  const api = runtime.runPython(`__import__('pyodide_js')`) as Record<string, any> | undefined;
  if (!api || typeof api !== 'object') throw new Error('lockdown: could not reach the pyodide API object');
  const internal = (api._api ?? {}) as Record<string, unknown>;
  // Pyodide's default stdin in Node wraps the worker's `process.stdin`, whose internal MessagePort carries Node's
  // own worker protocol: a forged message there crashes the HOST (measured on Node 20.20: a `stdioPayload` for an
  // unknown stream throws in the parent's handler, an uncaught TypeError). Replace it: reading stdin raises OSError (EIO) as before.
  if (typeof api.setStdin === 'function') api.setStdin({ error: true });
  for (const name of HOST_HELPERS.api!) if (name in api) api[name] = refuse(`pyodide.${name}`);
  for (const name of HOST_HELPERS.internal!) if (name in internal) internal[name] = refuse(`pyodide._api.${name}`);
  const module = (api._module ?? {}) as Record<string, any>;
  const FS = (runtime.FS ?? module.FS) as Record<string, any> | undefined;
  if (!FS || typeof FS.filesystems !== 'object') throw new Error('lockdown: could not reach the Emscripten FS');
  const errnoError = FS.ErrnoError as RuntimeHandles['errnoError'];
  const hostFs = new Set<unknown>(HOST_FILESYSTEMS.map((name) => FS.filesystems[name] ?? FS[name]).filter(Boolean));
  const mounts = (typeof FS.getMounts === 'function' ? FS.getMounts(FS.root.mount) : []) as { type: unknown; mountpoint: string }[];
  for (const mount of mounts) {
    if (hostFs.has(mount.type)) throw new Error(`lockdown: a host file system is mounted at ${mount.mountpoint}`);
  }
  for (const name of HOST_FILESYSTEMS) {
    if (FS.filesystems[name] !== undefined) delete FS.filesystems[name];
    if (FS[name] !== undefined) FS[name] = undefined;
    if (module[name] !== undefined) module[name] = undefined;
  }
  if (typeof module.mountNodeFS === 'function') module.mountNodeFS = refuse('mountNodeFS');
  return { api, module, errnoError };
}
