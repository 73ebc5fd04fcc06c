/**
 * Running user code as a cell: a cell from its code to its outcome, and a namespace op, which runs user code too (a
 * `__repr__`, a property). Both run inside the cell scope (realm/cell-scope.ts): the cell's callbacks run inside it
 * and nowhere else, and the host's deadline interrupts it.
 */
import type {
  FunctionCall,
  HarnessReplyOf,
  HarnessRequestOf,
  OutputLimits,
  PackageLoad,
  WorkerCellOutcome,
} from '../../src/wire/contract.js';
import { boundedReason } from '../../src/wire/load-reasons.js';
import type { PythonRuntime } from './runtime/types.js';
import { cellScope } from './realm/cell-scope.js';
import { fatalReason } from './realm/fatal-reason.js';
import type { Harness } from './harness-call.js';
import type { LiveOutput } from './live-output.js';
import type { Workspace } from './workspace.js';
import { NamespaceFailure, WorkerCrash } from './worker-errors.js';

export type NamespaceOp = 'list_variables' | 'inspect_variable' | 'remove_variables' | 'reset';

/** The module a failed import missed: `No module named 'x.y'`, or pandas' `Missing optional dependency 'x'`. */
const MISSED_MODULE = /^(?:No module named|Missing optional dependency) '([\w.]+)'/;

/** What a namespace op answers when it succeeds. */
export type NamespaceValue<K extends NamespaceOp> = Extract<HarnessReplyOf<K>, { ok: true }>['value'];

/** Where a cell comes from: a file (run_file), a function call (call_function), or the prime's scratch cells. */
export interface CellSource {
  filename?: string;
  call?: FunctionCall;
  /** The prime's cell (prime.ts): a scratch namespace with its own count (harness.py, _session_for). */
  scratch?: true;
  /** The id of a request that asked for its output while it runs (`stream_output`): sent tagged with it (live-output.ts). */
  liveId?: number;
}

export class CellRunner {
  constructor(
    private readonly runtime: PythonRuntime,
    private readonly harness: Harness,
    private readonly workspace: Workspace,
    private readonly interruptSignal: Int32Array,
    private readonly liveOutput: LiveOutput,
    private readonly log: (message: string) => void,
  ) {}

  /** One cell, from its code to its outcome. */
  async run(code: string, limits: OutputLimits, cell: CellSource = {}): Promise<WorkerCellOutcome> {
    const { filename, call, scratch, liveId } = cell;
    const { harness, interruptSignal } = this;
    // A stale interrupt (signalled just as the previous call ended) must not hit this one.
    Atomics.store(interruptSignal, 0, 0);
    // Nothing loads between cells: what a failed library load of the last cell left (through ctypes, say) goes now.
    this.runtime.forgetFailedLoads();
    const { loaded, failed } = await cellScope.host(() => this.loadImportedPackages(code));
    // Security: the cell's callbacks run inside it (settle) and nowhere else (end); see cell-scope.ts.
    cellScope.begin();
    if (liveId !== undefined) this.liveOutput.start(liveId, limits);
    let outcome: WorkerCellOutcome;
    try {
      const stream = liveId !== undefined;
      let reply = harness('run', {
        code,
        limits,
        filename,
        ...(call ? { call } : {}),
        ...(scratch ? { scratch } : {}),
        ...(stream ? { stream } : {}),
      });
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
      outcome = { ...reply, loaded_packages: loaded, failed_packages: failed, changes: this.workspace.collectChanges() };
    } finally {
      this.liveOutput.stop();
      cellScope.end();
    }
    if (outcome.error && !scratch) await cellScope.host(() => this.loadMissedPackage(outcome));
    return outcome;
  }

  /**
   * A cell that failed on an import made by a library (pandas' `df.style` imports jinja2), not by the cell's own code,
   * of an offline package that was therefore not loaded before the cell ran: the package is loaded now, and the
   * error's message says so and to run the cell again. It cannot be loaded during that import: the loader is
   * asynchronous and Python's import is not.
   */
  private async loadMissedPackage(outcome: WorkerCellOutcome): Promise<void> {
    const error = outcome.error!;
    if (error.type !== 'ModuleNotFoundError' && error.type !== 'ImportError') return;
    const module = MISSED_MODULE.exec(error.message)?.[1]?.split('.')[0];
    if (!module) return;
    // Not one that already failed to load before the cell (its failure is in the reply): it would fail again.
    const wanted = this.runtime
      .packagesForImports([module])
      .filter((name) => !outcome.failed_packages.some((failure) => failure.name === name));
    if (wanted.length === 0) return;
    const load = await this.loadOffline(wanted);
    outcome.loaded_packages = [...outcome.loaded_packages, ...load.loaded];
    outcome.failed_packages = [...outcome.failed_packages, ...load.failed];
    if (load.failed.length === 0) {
      error.message +=
        `\nSandbox: ${module} is in this runtime's offline set, but it loads when a cell's own code imports it, and here a ` +
        `library did: it is loaded now; run the cell again.`;
    }
  }

  /**
   * A namespace op (list, inspect, remove, reset): it runs user code too (a __repr__, a property), so it runs as a
   * cell for the cell scope (its callbacks are cancelled at its end) and the host's deadline interrupts it.
   */
  namespaceOp<K extends NamespaceOp>(op: K, fields: Omit<HarnessRequestOf<K>, 'op'>): NamespaceValue<K> {
    Atomics.store(this.interruptSignal, 0, 0);
    cellScope.begin();
    let reply: HarnessReplyOf<NamespaceOp>;
    try {
      reply = this.harness(op, fields);
    } finally {
      cellScope.end();
    }
    if (reply.ok) return reply.value as NamespaceValue<K>;
    throw new NamespaceFailure(reply.code === 'FAILED' ? 'WORKER_ERROR' : reply.code, reply.message);
  }

  /**
   * Loads offline packages that the code imports but that are not loaded yet, like a notebook user would
   * expect `import scipy` to just work. The common case (no import statement) costs one regex test. A package that
   * fails to load is reported with the cell; the cell still runs, and its import says why too.
   */
  private async loadImportedPackages(code: string): Promise<PackageLoad> {
    const none: PackageLoad = { loaded: [], failed: [] };
    if (!/\bimport\b/.test(code)) return none;
    const { runtime } = this;
    const names = this.harness('imported_names', { code });
    const wanted = runtime.packagesForImports(names);
    if (wanted.length === 0) return none;
    return this.loadOffline(wanted);
  }

  /** Loads offline packages into the session; a package that fails, or a loader that throws, is reported, never thrown. */
  private async loadOffline(wanted: string[]): Promise<PackageLoad> {
    const { runtime } = this;
    try {
      // A package that fails is logged by the runtime, as its loader reports it.
      return await this.workspace.trusted(() => runtime.loadPackages(wanted), runtime.installFootprint(wanted));
    } catch (error) {
      // The loader itself threw: every package asked for is reported with its message; the cell still runs.
      const message = String((error as Error)?.message ?? error);
      this.log(`auto-loading ${wanted.join(', ')} failed: ${message}`);
      return { loaded: [], failed: wanted.map((name) => ({ name, reason: boundedReason(message) })) };
    }
  }
}
