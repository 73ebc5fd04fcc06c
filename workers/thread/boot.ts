/**
 * A session worker's boot: the runtime, its memory snapshot when asked for one, the interrupt buffer, the harness,
 * the workspace, then the lockdown. Nothing of the user's runs before `boot()` resolves.
 *
 * Why the order: the sandbox's hooks are installed before the runtime loads (realm/lockdown.ts, prepareSandbox), the
 * snapshot is taken before anything but the runtime touched the interpreter, and the lockdown comes last, once
 * everything the worker needs later is held in closures.
 */
import type { RuntimeInfo, SessionMessage, WorkerInit } from '../../src/wire/contract.js';
import type { PythonRuntime } from './runtime/types.js';
import { bootRuntime } from './runtime/index.js';
import { losslessSignalView } from './runtime/interrupt-signal.js';
import { lockdown, prepareSandbox } from './realm/lockdown.js';
import { bindHarness, type Harness } from './harness-call.js';
import { Workspace, type Errnos } from './workspace.js';
import { loadHarness } from './python-modules.js';
import { blockingSleep } from './blocking-sleep.js';
import { LiveOutput } from './live-output.js';

// Captured when the module loads, before the lockdown removes the global `gc`. Session processes expose gc
// (src/sessions/spawn.ts).
const collectGarbage = (globalThis as { gc?: () => void }).gc;

export interface Booted {
  runtime: PythonRuntime;
  harness: Harness;
  workspace: Workspace;
  /** A running cell's output, sent while it runs when its request asks (the browser view). */
  liveOutput: LiveOutput;
  info: RuntimeInfo;
}

export interface BootDeps {
  /** The worker's guarded post (realm/guarded-post.ts); the snapshot goes through it. */
  post: (message: SessionMessage, transfer?: ArrayBuffer[]) => void;
  log: (message: string) => void;
  /** Called once the realm is locked: from then on `log` sends instead of keeping the runtime's boot chatter. */
  endBootLog: () => void;
  /** The host's interrupt signal (the `interruptBuffer` of workerData). */
  interruptSignal: Int32Array;
}

export async function boot(init: WorkerInit, { post, log, endBootLog, interruptSignal }: BootDeps): Promise<Booted> {
  const started = performance.now();
  prepareSandbox(); // security: import firewall + require guard, latched by lockdown() below
  const runtime = await bootRuntime(init.runtime, {
    distDir: init.distDir,
    wheelsDir: init.wheelsDir,
    wheelFiles: init.wheelFiles,
    emSnippets: init.emSnippets,
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
  const liveOutput = new LiveOutput(post);
  const sandbox = await lockdown({ runtime, log, liveOutput: liveOutput.send, sleep: blockingSleep(interruptSignal) });
  endBootLog();
  log(
    `session booted in ${Math.round(performance.now() - started)} ms (sandbox: permission model ${sandbox.permissionModel}, ${sandbox.removedGlobals.length} globals removed)`,
  );
  return {
    runtime,
    harness,
    workspace,
    liveOutput,
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
