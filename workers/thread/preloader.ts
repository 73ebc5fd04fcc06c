/**
 * The preload set (numpy, pandas, …) imported in the background, after the session is ready for code.
 *
 * Why: a legacy scientific session took 11–14 s to boot, of which the bare interpreter was 1.5–2 s; the rest was
 * loading the packages' files (about 2.8 s) and importing them (numpy 0.8, pandas 1.3, matplotlib with its warm-up
 * figure 1.5, sympy 3.2 s), measured one session alone on this 2-core machine. A session is now handed out once the
 * interpreter is up, and the server sends `preload` when it has a core to spare; `print(1)` never waits for pandas.
 *
 * The worker runs one thing at a time (SerialWork): the preload is cut into steps (load one package's files, import
 * one module), and a request that arrives meanwhile runs after the current step, before the next. A cell that
 * imports a preloaded package before its step came loads it itself (session.worker.ts, loadImportedPackages).
 *
 * A package that fails to load, or a module whose import raises, is reported in the preload's answer and the rest are
 * preloaded all the same; create_session then names it (src/sessions/warm-pool.ts).
 */
import type { PackageFailure, PackageLoad, PreloadReport } from '../../src/wire/contract.js';
import { boundedReason } from '../../src/wire/load-reasons.js';

// Captured when the module loads, before the lockdown empties the realm. (Atomics.waitAsync is ES2024: in every
// supported Node, not in the ES2023 lib this project compiles against.)
type WaitAsync = (array: Int32Array, index: number, value: number) => { async: false } | { async: true; value: Promise<unknown> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;
const atomicLoad = Atomics.load;

/**
 * Resolves once `hold` (the worker's hold signal, set by its supervisor: Supervisor.hold) is 0: at once when it is,
 * else when the supervisor lets go. Background steps call it before each step, so that a held session starts none.
 */
export async function untilReleased(hold: Int32Array): Promise<void> {
  while (atomicLoad(hold, 0) === 1) {
    const wait = waitAsync(hold, 0, 1);
    if (wait.async) await wait.value;
  }
}

/** Runs tasks one after another, in arrival order; a failure does not stop the queue. */
export class SerialWork {
  private tail: Promise<unknown> = Promise.resolve();
  private queued = 0;

  /** Tasks queued or running. */
  get pending(): number {
    return this.queued;
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    this.queued++;
    const run = async () => {
      try {
        return await task();
      } finally {
        this.queued--;
      }
    };
    const result = this.tail.then(run, run);
    this.tail = result.catch(() => {});
    return result;
  }
}

/** What one step of the preload does; each runs alone (inside SerialWork) and as the worker's own work. */
export interface PreloadSteps {
  /** Loads the package of one import name (and its requirements') from the distribution. */
  load(name: string): Promise<PackageLoad>;
  /** Imports one module: {versions: {module: version}, failed: {module: why}} (the harness's `import_modules`). */
  importModule(name: string): Promise<{ versions: Record<string, string>; failed: Record<string, string> }>;
}

/**
 * Loads, then imports, each of `names`, one step at a time through `work`; between steps, `betweenSteps` (ops.ts)
 * turns the event loop once, so that a request that arrived during a step is queued before the next one, and waits
 * while the server holds background work (a call an agent waits on runs). Resolves to what was imported and what was not, with why: a name whose packages did not
 * all load is not imported (its import would only fail the same way). Rejects only when a step throws (the session
 * ended); what was not imported then is imported on first use, like any offline package.
 */
export async function preload(
  names: string[],
  steps: PreloadSteps,
  work: SerialWork,
  betweenSteps: () => Promise<void>,
): Promise<PreloadReport> {
  const imported: Record<string, string> = {};
  const failed: PackageFailure[] = [];
  const loaded: string[] = [];
  for (const name of names) {
    await betweenSteps();
    const load = await work.run(() => steps.load(name));
    if (load.failed.length === 0) loaded.push(name);
    else failed.push({ name, reason: loadFailureReason(name, load.failed) });
  }
  for (const name of loaded) {
    await betweenSteps();
    const result = await work.run(() => steps.importModule(name));
    Object.assign(imported, result.versions);
    for (const [module, reason] of Object.entries(result.failed)) failed.push({ name: module, reason: boundedReason(reason) });
  }
  return { imported, failed };
}

/** Why a preload name did not load: its own package's reason, or each failed package's (a requirement's) by name. */
function loadFailureReason(name: string, failures: PackageFailure[]): string {
  if (failures.length === 1 && failures[0]!.name === name) return failures[0]!.reason;
  return boundedReason(failures.map((failure) => `${failure.name}: ${failure.reason}`).join('; '));
}
