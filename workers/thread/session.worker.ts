/**
 * One session's worker thread: boots a Pyodide runtime, loads the harness, then answers the host's
 * requests one at a time, with the plain-data messages of src/wire/contract.ts. With process isolation requests and
 * most replies go over its own pipe to the server (fd 4, direct-channel.ts) and the rest through `parentPort` to
 * its supervisor; with thread isolation everything goes through `parentPort`.
 */
import process from 'node:process';
import { parentPort, workerData } from 'node:worker_threads';
import type {
  FunctionCall,
  HarnessOp,
  HarnessReplyOf,
  HarnessRequestOf,
  OutputLimits,
  PackageListing,
  RuntimeInfo,
  SessionMessage,
  SessionRequest,
  WireError,
  WorkerCellOutcome,
  WorkerFileChanges,
  WorkerInit,
} from '../../src/wire/contract.js';
import type { PythonRuntime } from './runtime/types.js';
import { bootRuntime } from './runtime/index.js';
import { losslessSignalView } from './runtime/interrupt-signal.js';
import { cellScope, fatalReason } from './realm/cell-scope.js';
import { createGuardedPost, lockdown, prepareSandbox } from './realm/lockdown.js';
import { Workspace, WorkspaceError, WorkspaceViolation, type Errnos } from './workspace.js';
import { openDirectChannel } from './direct-channel.js';
import { loadHarness } from './python-modules.js';
import { preload, SerialWork } from './preloader.js';
import { WARM_UP_CELL, WARM_UP_LIMITS, warmUp } from './warm-up.js';

const port = parentPort;
if (!port) throw new Error('session.worker must run inside a worker thread');
const init = workerData as WorkerInit & { interruptBuffer: SharedArrayBuffer; channelFd?: number };
// Process isolation: requests and most replies use the worker's own pipe to the server (direct-channel.ts).
const direct = typeof init.channelFd === 'number' ? openDirectChannel(init.channelFd, port) : null;
// Security: postMessage bound now, before user code exists; logs rate-limited, oversized messages refused.
const post = createGuardedPost<SessionMessage>(direct ? direct.router : port);
const send = (message: string) => post({ type: 'log', message });
/**
 * While booting, the runtime's chatter (package loading, interpreter start-up, import warnings) is kept, not sent:
 * a server log line per package per boot is noise. It is sent only when the boot fails, where it helps.
 */
let bootLines: string[] | null = [];
const MAX_BOOT_LINES = 200;
const log = (message: string) => {
  if (!bootLines) send(message);
  else if (bootLines.length < MAX_BOOT_LINES) bootLines.push(message);
};
// A promise the cell's Python left rejected (an asyncio task's JavaScript side, when the time limit's interrupt lands
// inside the task) would otherwise end the whole worker with an empty error: measured about 1 in 12 such timeouts
// under load. It is logged instead; a broken interpreter is still caught by the next call (fatalReason).
process.on('unhandledRejection', (reason) => {
  const err = reason as { type?: unknown; name?: unknown; message?: unknown } | null;
  log(
    `unhandled rejection in the session (ignored): ${String(err?.type ?? err?.name ?? 'error')} ${String(err?.message ?? '').slice(0, 500)}`,
  );
});
const interruptSignal = new Int32Array(init.interruptBuffer);
// Captured before the lockdown empties the realm (and cell-scope.ts replaces the timers): the worker's own use only,
// out of user code's reach. Session processes expose gc (src/sessions/spawn.ts).
const collectGarbage = (globalThis as { gc?: () => void }).gc;
const realSetImmediate = globalThis.setImmediate;
const yieldNow = () => new Promise<void>((resolve) => realSetImmediate(resolve));

interface Booted {
  runtime: PythonRuntime;
  harness: Harness;
  workspace: Workspace;
  info: RuntimeInfo;
}

async function boot(): Promise<Booted> {
  const started = performance.now();
  prepareSandbox(); // security: import firewall + require guard, latched by lockdown() below
  const runtime = await bootRuntime(init.runtime, {
    distDir: init.distDir,
    wheelsDir: init.wheelsDir,
    wheelFiles: init.wheelFiles,
    log,
    snapshot: init.snapshot,
    makeSnapshot: init.makeSnapshot,
    lockFile: init.lockFile,
    snapshotImports: init.snapshotPreload ? init.preload : [],
  });
  // The snapshot (about 30 MB) is in the interpreter's memory now; `init` is workerData, which lives as long as the
  // worker, so without this its copy stayed resident in every session (measured: one 30 MB mapping per process).
  init.snapshot = null;
  if (init.makeSnapshot && runtime.makeSnapshot) {
    // Taken right after boot (and the pure-Python preload set's import, with snapshotPreload), before the interrupt
    // buffer, the harness or any user code touch the runtime. A failure costs this session nothing: the server then
    // boots every session without a snapshot.
    try {
      const data = runtime.makeSnapshot();
      post({ type: 'snapshot', data }, [data.buffer as ArrayBuffer]);
    } catch (error) {
      log(`could not make a memory snapshot: ${(error as Error).message}`);
    }
  }
  const interruptible = runtime.setInterruptBuffer(losslessSignalView(interruptSignal));
  // Security: the harness is loaded before any user code exists, and the worker keeps its entry (python-modules.ts).
  const harness = bindHarness(loadHarness(runtime, init.harnessPath));
  const errnos: Errnos = harness('configure', { figure_formats: init.figureFormats });
  // The preload itself comes later, in the background (the `preload` request, workers/thread/preloader.ts).
  const packages = runtime.packageVersions(init.preload);
  const workspace = new Workspace(runtime.FS, init.fileLimits, errnos);
  // Files written while booting (none expected in the workspace) are not the user's changes.
  workspace.collectChanges();
  // Security: from here on the realm holds nothing dangerous (workers/thread/realm/lockdown.ts). No user code ran yet.
  // Drop the boot's copies of the snapshot before the realm is locked (which removes the global `gc`).
  collectGarbage?.();
  const sandbox = await lockdown({ runtime, log });
  bootLines = null;
  log(
    `session booted in ${Math.round(performance.now() - started)} ms (sandbox: permission model ${sandbox.permissionModel}, ${sandbox.removedGlobals.length} globals removed)`,
  );
  return {
    runtime,
    harness,
    workspace,
    info: {
      kind: runtime.kind,
      python: runtime.pythonVersion,
      pyodide: runtime.pyodideVersion,
      packages,
      available: runtime.availablePackages(),
      interruptible,
      bootMs: Math.round(performance.now() - started),
    },
  };
}

/**
 * Loads offline packages that the code imports but that are not loaded yet, like a notebook user would
 * expect `import scipy` to just work. The common case (no import statement) costs one regex test.
 */
async function loadImportedPackages(runtime: PythonRuntime, harness: Harness, workspace: Workspace, code: string): Promise<string[]> {
  if (!/\bimport\b/.test(code)) return [];
  const names = harness('imported_names', { code });
  const wanted = runtime.packagesForImports(names);
  if (wanted.length === 0) return [];
  try {
    await workspace.trusted(() => runtime.loadPackages(wanted));
    return wanted;
  } catch (error) {
    // The cell still runs: its ImportError then tells the user what is missing.
    log(`auto-loading ${wanted.join(', ')} failed: ${(error as Error).message}`);
    return [];
  }
}

/** A namespace op refused for a reason the caller can fix (the code travels to the tool reply). */
class NamespaceFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type NamespaceOp = 'list_variables' | 'inspect_variable' | 'remove_variables' | 'reset';
type NamespaceReply = { ok: true; value: unknown } | { ok: false; code: string; message: string };

function toWire(error: unknown, code = 'WORKER_ERROR'): WireError {
  if (error instanceof NamespaceFailure) return { code: error.code, message: error.message };
  if (error instanceof WorkspaceError) return { code: error.code, message: error.message };
  if (error instanceof WorkerCrash) return { code: 'WORKER_CRASHED', message: error.message };
  const err = error as { message?: string; type?: string; errno?: number };
  // Emscripten FS errors carry an errno and little of a message.
  if (typeof err?.errno === 'number') return { code, message: `File system error (errno ${err.errno}): ${err.message ?? ''}`.trim() };
  return { code, message: String(err?.message ?? error) };
}

/**
 * The harness always answers with JSON text. Anything else means the interpreter itself is gone (a
 * Pyodide fatal error, `os._exit`, a signal): report the worker as crashed so the host ends the session
 * with a clear error instead of failing every later call.
 */
function parseHarnessReply(reply: unknown): unknown {
  if (typeof reply !== 'string')
    throw new WorkerCrash('The Python interpreter stopped (fatal error or exit); the session cannot continue.');
  return JSON.parse(reply);
}

class WorkerCrash extends Error {}

/** Calls the harness with one op of the contract (src/wire/contract.ts, harnessRequestSchemas). */
type Harness = <K extends HarnessOp>(op: K, fields: Omit<HarnessRequestOf<K>, 'op'>) => HarnessReplyOf<K>;

/**
 * The harness's replies are checked by the supervisor (they come from the user's realm, which can rebind the
 * harness's functions); here they are only parsed, typed by the contract.
 */
function bindHarness(entry: (json: string) => string): Harness {
  return (op, fields) => parseHarnessReply(runOrCrash(() => entry(JSON.stringify({ op, ...fields })))) as HarnessReplyOf<typeof op>;
}

/**
 * `os._exit()`, `os.kill(os.getpid(), …)` and friends end Emscripten's program (an ExitStatus); a JavaScript
 * stack overflow or a wasm trap inside Python leaves Pyodide fatally broken (cell-scope.ts: fatalReason). Either
 * way the interpreter is not usable afterwards, so the session ends (the host terminates the worker).
 */
function runOrCrash<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    const reason = fatalReason(error);
    if (reason !== null) throw new WorkerCrash(reason);
    throw error;
  }
}

/** Security: once the interpreter is gone or the workspace was tampered with, every later request says so. */
let ended: WorkerCrash | null = null;

/** Buffers of the changed files, moved (not copied) to the host. */
function transferables(changes: WorkerFileChanges): ArrayBuffer[] {
  return changes.written.map((file) => file.data.buffer as ArrayBuffer).filter((buffer, i, all) => all.indexOf(buffer) === i);
}

boot().then(
  ({ runtime, harness, workspace, info }) => {
    // The worker's own calls into Python outside a cell (cell-scope.ts refuses any other).
    const host = <T>(work: () => T | Promise<T>) => cellScope.host(work);
    /** One cell, from its code to its outcome; `scratch`: the warm-up's (harness.py, _session_for). */
    const executeCell = async (
      code: string,
      limits: OutputLimits,
      cell: { filename?: string; call?: FunctionCall; scratch?: true } = {},
    ) => {
      const { filename, call, scratch } = cell;
      // A stale interrupt (signalled just as the previous call ended) must not hit this one.
      Atomics.store(interruptSignal, 0, 0);
      const loaded = await host(() => loadImportedPackages(runtime, harness, workspace, code));
      // Security: the cell's callbacks run inside it (settle) and nowhere else (end); see cell-scope.ts.
      cellScope.begin();
      let outcome: WorkerCellOutcome;
      try {
        let reply = harness('run', { code, limits, filename, ...(call ? { call } : {}), ...(scratch ? { scratch } : {}) });
        if ('settle' in reply && reply.settle === true) {
          const stopped = reply.interrupted === true;
          const settled = await cellScope.settle({
            interrupted: () => stopped || Atomics.exchange(interruptSignal, 0, 0) !== 0,
            pendingTasks: () => Number(harness('tasks', scratch ? { scratch } : {})) || 0,
            tasksAtStart: Number(reply.tasks) || 0,
          });
          if (settled.fatal) throw new WorkerCrash(fatalReason(settled.fatal)!);
          const { interrupted, errors, moreErrors, pendingTimers } = settled;
          reply = harness('finish', {
            interrupted,
            callback_errors: errors,
            more_errors: moreErrors,
            pending_timers: pendingTimers,
            ...(scratch ? { scratch } : {}),
          });
        }
        if ('settle' in reply) throw new WorkerCrash('The harness asked to settle a cell twice; the session cannot continue.');
        // Still inside the cell: whatever user code this triggers (it owns the realm's prototypes) is the cell's.
        outcome = { ...reply, loaded_packages: loaded, changes: workspace.collectChanges() };
      } finally {
        cellScope.end();
      }
      return outcome;
    };
    const runCell = async (id: number, code: string, limits: OutputLimits, filename?: string, call?: FunctionCall) => {
      const outcome = await executeCell(code, limits, { filename, call });
      post({ id, type: 'reply', ok: true, value: outcome }, transferables(outcome.changes));
    };
    /** Requests other than preload and warm_up received so far: the warm-up stops at the first. */
    let agentRequests = 0;
    const replyWithChanges = (id: number) => {
      const changes = workspace.collectChanges();
      post({ id, type: 'reply', ok: true, value: changes }, transferables(changes));
    };

    /**
     * A namespace op (list, inspect, remove, reset): it runs user code too (a __repr__, a property), so it runs as a
     * cell for the cell scope (its callbacks are cancelled at its end) and the host's deadline interrupts it.
     */
    const namespaceOp = <K extends NamespaceOp>(op: K, fields: Omit<HarnessRequestOf<K>, 'op'>): unknown => {
      Atomics.store(interruptSignal, 0, 0);
      cellScope.begin();
      let reply: NamespaceReply;
      try {
        reply = harness(op, fields) as NamespaceReply;
      } finally {
        cellScope.end();
      }
      if (reply.ok) return reply.value;
      throw new NamespaceFailure(reply.code === 'FAILED' ? 'WORKER_ERROR' : reply.code, reply.message);
    };

    const handle = async (request: SessionRequest): Promise<void> => {
      if (ended) throw ended;
      switch (request.type) {
        case 'execute':
          return await runCell(request.id, request.code, request.limits);
        case 'run_file':
          return await runCell(request.id, workspace.readText(request.path), request.limits, request.path);
        case 'call_function':
          return await runCell(request.id, '', request.limits, undefined, request.call);
        case 'list_variables': {
          const { filter, max_items, repr_chars } = request;
          post({ id: request.id, type: 'reply', ok: true, value: namespaceOp('list_variables', { filter, max_items, repr_chars }) });
          return;
        }
        case 'inspect_variable': {
          const { name, detail, text_chars } = request;
          post({ id: request.id, type: 'reply', ok: true, value: namespaceOp('inspect_variable', { name, detail, text_chars }) });
          return;
        }
        case 'remove_variables':
          post({ id: request.id, type: 'reply', ok: true, value: namespaceOp('remove_variables', { names: request.names }) });
          return;
        case 'reset': {
          const { removed } = namespaceOp('reset', { clear_files: request.clear_files }) as { removed: number };
          const changes = workspace.collectChanges();
          post({ id: request.id, type: 'reply', ok: true, value: { removed, changes } }, transferables(changes));
          return;
        }
        case 'write_file':
          workspace.writeFile(request.path, request.data, { append: request.append, overwrite: request.overwrite });
          return replyWithChanges(request.id);
        case 'delete_file':
          workspace.delete(request.path);
          return replyWithChanges(request.id);
        case 'load_packages':
          await host(() => workspace.trusted(() => runtime.loadPackages(request.packages)));
          post({ id: request.id, type: 'reply', ok: true, value: null });
          return;
        case 'install_wheel':
          // A wheel the server fetched and verified (--allow-network); unpacked by the harness.
          await host(() =>
            workspace.trusted(() =>
              harness('install_wheel', { filename: request.filename, data: Buffer.from(request.data).toString('base64') }),
            ),
          );
          post({ id: request.id, type: 'reply', ok: true, value: null });
          return;
        case 'list_packages': {
          const listing: PackageListing = { loaded: runtime.loadedPackages(), available: runtime.availablePackages() };
          post({ id: request.id, type: 'reply', ok: true, value: listing });
          return;
        }
        case 'preload': {
          const versions = await preload(init.preload, preloadSteps, work, yieldNow);
          // The packages' transit copies (each file read whole before it is unpacked) go now, while idle.
          if (init.preload.length > 0) collectGarbage?.();
          post({ id: request.id, type: 'reply', ok: true, value: versions });
          return;
        }
        case 'warm_up': {
          const cells = await warmUp(request.cells, {
            runCell: () => executeCell(WARM_UP_CELL, WARM_UP_LIMITS, { filename: '<warm-up>', scratch: true }),
            stop: () => agentRequests > 0 || ended !== null,
            work,
            yieldNow,
          });
          post({ id: request.id, type: 'reply', ok: true, value: { cells } });
          return;
        }
      }
    };
    const preloadSteps = {
      load: async (name: string) => {
        if (ended) throw ended;
        const wanted = runtime.packagesForImports([name]);
        if (wanted.length > 0) await host(() => workspace.trusted(() => runtime.loadPackages(wanted)));
      },
      importModule: (name: string) => {
        if (ended) throw ended;
        // An interrupt meant for a cell that waited behind this step is raised again by the host until it answers.
        Atomics.store(interruptSignal, 0, 0);
        return host(() => harness('import_modules', { names: [name] }));
      },
    };
    // One request at a time, in arrival order; the preload runs its steps through the same queue, between requests.
    const work = new SerialWork();
    const onRequest = (request: SessionRequest) => {
      const answer = async () => {
        try {
          await handle(request);
        } catch (error) {
          if (error instanceof WorkspaceViolation) ended = new WorkerCrash(error.message);
          else if (error instanceof WorkerCrash) ended = error;
          post({ id: (request as { id: number }).id, type: 'reply', ok: false, error: toWire(ended ?? error) });
        }
      };
      const background = request.type === 'preload' || request.type === 'warm_up';
      if (!background) agentRequests++;
      void (background ? answer() : work.run(answer));
    };
    if (direct) direct.listen(onRequest);
    else port.on('message', onRequest);
    post({ type: 'ready', info });
  },
  (error) => {
    const lines = bootLines ?? [];
    bootLines = null;
    for (const line of lines) log(line);
    post({ type: 'boot_failed', error: toWire(error, 'BOOT_FAILED') });
  },
);
