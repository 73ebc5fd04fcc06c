/**
 * One session's worker thread: boots a Pyodide runtime, loads the harness, then answers the host's
 * requests one at a time. It talks only through `parentPort` with the plain-data messages of
 * src/protocol.ts.
 */
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { CellOutcome, HostRequest, PackageListing, RuntimeInfo, WireError, WorkerInit, WorkerMessage } from '../src/protocol.js';
import type { PythonRuntime } from './runtime/types.js';
import { bootRuntime } from './runtime/index.js';

const port = parentPort;
if (!port) throw new Error('session.worker must run inside a worker thread');
const init = workerData as WorkerInit;
const post = (message: WorkerMessage) => port.postMessage(message);
const log = (message: string) => post({ type: 'log', message });

async function boot(): Promise<{ runtime: PythonRuntime; run: (json: string) => string; info: RuntimeInfo }> {
  const started = performance.now();
  const runtime = await bootRuntime(init.runtime, {
    distDir: init.distDir,
    wheelsDir: init.wheelsDir,
    preload: init.preload,
    log,
  });
  const interruptible = runtime.setInterruptBuffer(new Int32Array(init.interruptBuffer));
  await runtime.loadPackages(init.preload);
  // The harness becomes its own module; we keep a direct handle on its entry point so that user code
  // rebinding names in __main__ cannot redirect the worker. The source is ours, embedded as a JSON
  // string literal (valid Python), never user input.
  const source = readFileSync(init.harnessPath, 'utf8');
  const run = runtime.bindFunction(
    `(lambda src, types, sys: (lambda m: (exec(compile(src, 'pyodide_mcp_harness.py', 'exec'), m.__dict__),` +
      ` sys.modules.__setitem__('pyodide_mcp_harness', m), m.entry)[-1])(types.ModuleType('pyodide_mcp_harness')))` +
      `(${JSON.stringify(source)}, __import__('types'), __import__('sys'))`,
  );
  const packages = JSON.parse(run(JSON.stringify({ op: 'import', names: init.preload }))) as Record<string, string>;
  return {
    runtime,
    run,
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
async function loadImportedPackages(runtime: PythonRuntime, run: (json: string) => string, code: string): Promise<string[]> {
  if (!/\bimport\b/.test(code)) return [];
  const names = JSON.parse(run(JSON.stringify({ op: 'imports', code }))) as string[];
  const wanted = runtime.packagesForImports(names);
  if (wanted.length === 0) return [];
  try {
    await runtime.loadPackages(wanted);
    return wanted;
  } catch (error) {
    // The cell still runs: its ImportError then tells the user what is missing.
    log(`auto-loading ${wanted.join(', ')} failed: ${(error as Error).message}`);
    return [];
  }
}

function toWire(error: unknown, code: string): WireError {
  const err = error as { message?: string; type?: string };
  return { code, message: String(err?.message ?? error), pythonType: err?.type };
}

boot().then(
  ({ runtime, run, info }) => {
    port.on('message', async (request: HostRequest) => {
      try {
        switch (request.type) {
          case 'execute': {
            // A stale interrupt (signalled just as the previous cell ended) must not hit this cell.
            Atomics.store(new Int32Array(init.interruptBuffer), 0, 0);
            const loaded = await loadImportedPackages(runtime, run, request.code);
            const outcome = JSON.parse(run(JSON.stringify({ op: 'run', code: request.code, limits: request.limits }))) as CellOutcome;
            outcome.loaded_packages = loaded;
            post({ id: request.id, type: 'reply', ok: true, value: outcome });
            return;
          }
          case 'load_packages':
            await runtime.loadPackages(request.packages);
            post({ id: request.id, type: 'reply', ok: true, value: null });
            return;
          case 'list_packages': {
            const listing: PackageListing = { loaded: runtime.loadedPackages(), available: runtime.availablePackages() };
            post({ id: request.id, type: 'reply', ok: true, value: listing });
            return;
          }
        }
      } catch (error) {
        post({ id: (request as { id: number }).id, type: 'reply', ok: false, error: toWire(error, 'WORKER_ERROR') });
      }
    });
    post({ type: 'ready', info });
  },
  (error) => post({ type: 'boot_failed', error: toWire(error, 'BOOT_FAILED') }),
);
