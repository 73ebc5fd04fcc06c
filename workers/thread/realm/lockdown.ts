/**
 * The in-worker half of the sandbox. Python reaches the worker's JavaScript realm through `import js`,
 * `pyodide_js`, `pyodide.code.run_js` and every JsProxy's `.constructor.constructor`; none of those routes can be
 * closed, so the lockdown makes the REALM harmless instead: whatever Python can reach must hold nothing dangerous.
 * This module puts the layers in place, in order; each layer is a module of its own.
 *
 * Layers (each measured on Node 20.20, see test/security/):
 *  1. Per-worker Node permission model (set by the host through the worker's execArgv, src/supervisor/worker-sandbox.ts):
 *     file reads only from the distribution/package directories, no writes, no child processes, no workers,
 *     no native addons, no `process.binding`. Enforced in C++; checked from inside (permission-check.ts).
 *  2. Code generation from strings is off in session workers (host-side V8 flag, src/supervisor/worker-sandbox.ts), so
 *     `eval`, `Function(...)`, `run_js` throw EvalError: user code can only call functions that already exist
 *     (checked from inside, permission-check.ts; the legacy runtime's `Function` stand-in: callable-target.ts).
 *  3. Import firewall: `prepareSandbox()` (before boot) registers module hooks (firewall-hooks.ts, import-firewall.ts)
 *     and wraps the CommonJS loader (require-guard.ts); `lockdown()` (after boot, before the first request) latches
 *     both, so no `import()` and no `require()` of anything (node:net, node:fs, data: URLs...) can succeed in this
 *     thread afterwards, whoever calls it.
 *  4. Allow-list of globals (global-allow-list.ts): after boot everything on `globalThis` that is not a plain
 *     ECMAScript / harmless web API is removed. Node-backed Emscripten file systems (NODEFS...) and Pyodide's
 *     host-facing helpers (mountNodeFS, initializeNodeSockFS, loadBinaryFile...) are replaced by functions that throw
 *     (host-helpers.ts). Then the cell scope (cell-scope.ts): user code runs only inside a cell.
 *  5. `createGuardedPost` (guarded-post.ts): what the worker sends to the host is size- and rate-bounded by a closure
 *     user code cannot reach, so even a tampered harness cannot flood the host.
 *
 * Order matters: the finalizer queue and the hooks before the runtime loads; Emscripten's lazy require()s before the
 * latch; the latch before the globals go; the cell scope last, on the emptied realm, before any user code.
 * Everything the worker needs later (parentPort, the interrupt buffer, fs for package files) is held in module
 * closures captured before any user code runs; nothing of it is reachable from the realm's global object.
 */
import { cellScope } from './cell-scope.js';
import { finalizers } from './finalizers.js';
import { latchImportFirewall, registerImportFirewall } from './firewall-hooks.js';
import { cleanGlobals } from './global-allow-list.js';
import { removeHostHelpers } from './host-helpers.js';
import { checkNoCodeGeneration, checkPermissionModel } from './permission-check.js';
import { installRequireGuard, latchRequireGuard } from './require-guard.js';
import type { PythonRuntime } from '../runtime/types.js';

let prepared = false;

/**
 * Call once, first thing in the worker, BEFORE the runtime boots: installs the import firewall (ESM hooks) and the
 * CommonJS loader guard, both still open. Pyodide needs imports/require while it boots.
 */
export function prepareSandbox(): void {
  if (prepared) return;
  prepared = true;
  // Before the runtime loads: Pyodide's PyProxy finalizers then wait for the next cell (finalizers.ts).
  finalizers.install();
  registerImportFirewall();
  installRequireGuard();
}

export interface LockdownOptions {
  runtime: PythonRuntime;
  log: (message: string) => void;
  /**
   * What the harness's streams call with a running cell's output (`pyodide_js._pyodide_mcp_live_output`,
   * live-output.ts); user code can call it too, so it checks what it is given.
   */
  liveOutput: (stream: unknown, text: unknown) => void;
  /** What the harness's `time.sleep` waits on (`pyodide_js._pyodide_mcp_sleep`, workers/thread/blocking-sleep.ts). */
  sleep: (seconds: unknown) => void;
}

export interface LockdownReport {
  removedGlobals: string[];
  permissionModel: 'active' | 'absent';
}

/**
 * Call once after the runtime, packages and harness are ready and BEFORE the first request is served. Throws (so
 * the worker reports boot_failed) if a layer could not be put in place: fail closed.
 */
export async function lockdown({ runtime, log, liveOutput, sleep }: LockdownOptions): Promise<LockdownReport> {
  if (!prepared) throw new Error('lockdown: prepareSandbox() was not called before boot');

  // 1. Things Emscripten initialises lazily through require(): do them now, while require still works.
  runtime.runPython(
    `(lambda os, random, time: (os.urandom(16), random.random(), time.time(), time.localtime(), os.getcwd()) and None)` +
      `(__import__('os'), __import__('random'), __import__('time'))`,
  );

  // 2. Pyodide's host-facing helpers and the Node-backed file systems.
  const { api, module, errnoError } = removeHostHelpers(runtime);
  Object.defineProperty(api, '_pyodide_mcp_live_output', { value: liveOutput, writable: false, configurable: false, enumerable: false });
  Object.defineProperty(api, '_pyodide_mcp_sleep', { value: sleep, writable: false, configurable: false, enumerable: false });

  // 3. Latch the import firewall and the require() guard, and check the latch holds.
  latchRequireGuard(errnoError);
  await latchImportFirewall();

  // 4. The realm's globals: allow-list.
  const removedGlobals = cleanGlobals(log);
  // Security: from here user code runs only inside a cell (timers, promise reactions, calls into Python; cell-scope.ts).
  cellScope.install({ module, api, log, drainFinalizers: () => finalizers.drain() });

  // 5. The permission model (layer 1), if the host asked for it, and no code generation from strings (layer 2).
  const permissionModel = checkPermissionModel();
  checkNoCodeGeneration();
  return { removedGlobals, permissionModel };
}
