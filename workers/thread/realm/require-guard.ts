/**
 * The CommonJS loader guard (a layer of the lockdown, lockdown.ts): after the latch, `require()` of anything fails in
 * this thread, whoever calls it.
 *
 * Why: Emscripten (modern pyodide.asm.mjs) keeps a module-local `require` from createRequire; e.g. os.system() does
 * require('node:child_process'), crypto is required lazily. The import firewall's ESM hooks do not see require()
 * (on Node 20); this guard does. Two requires get inert stubs instead of a throw, because a throw inside a syscall
 * would be a Pyodide fatal error: child_process (os.system) and ws (Emscripten's sockets).
 * Installed before the runtime boots (Pyodide needs require while it boots), latched by lockdown().
 */
import { constants as fsConstants } from 'node:fs';
import nodeModule from 'node:module';
import { constants as osConstants } from 'node:os';
import realProcess from 'node:process';
import { SANDBOX_REFUSAL } from './sandbox-refusal.js';

let latched = false;
/** Emscripten's FS.ErrnoError, known once booted: stubs throw it so that Python sees an OSError, not a crash. */
let errnoError: (new (errno: number) => Error) | null = null;
const EHOSTUNREACH = 23;
const EOPNOTSUPP = 138;

/** Wraps the CommonJS loader and `process.binding`; both still let everything through until `latchRequireGuard`. */
export function installRequireGuard(): void {
  const loader = nodeModule as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
  const load = loader._load;
  const apply = Reflect.apply;
  // os.system() in Emscripten's Node mode is require('node:child_process').spawnSync(cmd, {shell: true, stdio:
  // 'inherit'): a real shell writing to the MCP stdout. After lockdown it gets this stub instead (a throw inside a
  // syscall would be a Pyodide fatal error): the command is not run and os.system returns 127 << 8.
  const noChildProcess = Object.freeze({
    spawnSync: () => Object.freeze({ status: 127, signal: null, pid: 0, output: [], stdout: null, stderr: null }),
  });
  // Emscripten's SOCKFS in Node mode: connect() does `new (require('ws'))(url)` (a real outbound WebSocket) and
  // listen() `new (require('ws').Server)(...)` (a real listening server). After lockdown: OSError, nothing opened.
  const osError = (errno: number) => (errnoError ? new errnoError(errno) : new Error(`sockets are ${SANDBOX_REFUSAL}`));
  const noWs = Object.freeze(
    Object.assign(
      function WebSocket() {
        throw osError(EHOSTUNREACH);
      },
      {
        Server: function WebSocketServer() {
          throw osError(EOPNOTSUPP);
        },
      },
    ),
  );
  loader._load = function guardedLoad(this: unknown, ...args: [string, unknown, boolean]) {
    if (latched && (args[0] === 'node:child_process' || args[0] === 'child_process')) return noChildProcess;
    if (latched && args[0] === 'ws') return noWs;
    if (latched) throw new Error(`require(${JSON.stringify(String(args[0])).slice(0, 200)}) is ${SANDBOX_REFUSAL}`);
    return apply(load, this, args);
  };
  // Emscripten's NODEFS.staticInit (run while pyodide.asm.mjs boots) reads process.binding('constants').fs, and
  // the permission model refuses process.binding altogether. Serve that one pure-data answer; refuse the rest.
  const binding = (realProcess as unknown as { binding: (name: string) => unknown }).binding;
  const constants = Object.freeze({ fs: fsConstants, os: osConstants });
  (realProcess as unknown as { binding: (name: string) => unknown }).binding = function guardedBinding(this: unknown, name: string) {
    if (name === 'constants') return constants;
    return apply(binding, this, [name]);
  };
}

/** From now on every require() is refused (or stubbed). `fsErrnoError`: the booted runtime's FS.ErrnoError. */
export function latchRequireGuard(fsErrnoError: (new (errno: number) => Error) | null): void {
  errnoError = fsErrnoError;
  latched = true;
}
