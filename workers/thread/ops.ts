/**
 * What the worker does for each op of the contract: the dispatch table. Its type is the contract's request→reply map
 * (src/wire/contract.ts: `WorkerOp`, `RequestOf`, `WorkerReplyOf`), so an op added there without a handler here,
 * or a handler answering the wrong shape, is a compile error. How requests reach these handlers, one at a time, and
 * how their replies and failures are sent: dispatch.ts.
 */
import type { PackageListing, RequestOf, WorkerFileChanges, WorkerOp, WorkerReplyOf } from '../../src/wire/contract.js';
import { bufferFootprint } from './archive-footprint.js';
import type { PythonRuntime } from './runtime/types.js';
import { cellScope } from './realm/cell-scope.js';
import type { CellRunner } from './cell.js';
import type { Harness } from './harness-call.js';
import { preload, untilReleased, type PreloadSteps, type SerialWork } from './preloader.js';
import { PRIME_CELL, PRIME_FILENAME, PRIME_LIMITS, prime } from './prime.js';
import type { Workspace } from './workspace.js';
import type { WorkerCrash } from './worker-errors.js';

// Captured when the module loads, before the lockdown empties the realm (and cell-scope.ts replaces the timers): the
// worker's own use only, out of user code's reach. Session processes expose gc (src/sessions/spawn.ts).
const collectGarbage = (globalThis as { gc?: () => void }).gc;
const realSetImmediate = globalThis.setImmediate;
const yieldNow = () => new Promise<void>((resolve) => realSetImmediate(resolve));

/**
 * Between two background steps: one turn of the event loop (a request that arrived during the step is queued before
 * the next), then, while the server holds background work (a call an agent waits on runs, in this session or
 * another; src/sessions/background-gate.ts), until it lets go.
 */
async function betweenSteps(hold: Int32Array): Promise<void> {
  await yieldNow();
  await untilReleased(hold);
}

/** A handler's answer: the reply's value, and the buffers moved (not copied) with it. */
export interface Reply<K extends WorkerOp> {
  value: WorkerReplyOf<K>;
  transfer?: ArrayBuffer[];
}

/** One handler per op the worker answers. */
export type OpHandlers = { [K in WorkerOp]: (request: RequestOf<K> & { id: number }) => Promise<Reply<K>> };

export interface OpContext {
  runtime: PythonRuntime;
  harness: Harness;
  workspace: Workspace;
  cells: CellRunner;
  /** The host's interrupt signal. */
  interruptSignal: Int32Array;
  /** 1 while the server holds background steps (the supervisor's `hold`), else 0. */
  holdSignal: Int32Array;
  /** Packages the `preload` request imports (workerData's `preload`). */
  preloadSet: string[];
  /** The worker's queue: one thing at a time (dispatch.ts). */
  work: SerialWork;
  /** Why the session has ended (the interpreter is gone, the workspace was tampered with), or null: background work stops. */
  ended(): WorkerCrash | null;
  /** Requests of an agent received so far (all but preload and prime): priming stops at the first. */
  agentRequests(): number;
}

/** A cell request's live output (the browser view), when it asked for it: tagged with its id. */
function live(id: number, streamOutput: boolean | undefined): { liveId?: number } {
  return streamOutput === true ? { liveId: id } : {};
}

/** Buffers of the changed files, moved (not copied) to the host. */
function transferables(changes: WorkerFileChanges): ArrayBuffer[] {
  return changes.written.map((file) => file.data.buffer as ArrayBuffer).filter((buffer, i, all) => all.indexOf(buffer) === i);
}

function withChanges<K extends WorkerOp>(value: WorkerReplyOf<K> & { changes: WorkerFileChanges }): Reply<K> {
  return { value, transfer: transferables(value.changes) };
}

function changesReply(changes: WorkerFileChanges): Reply<'write_file' | 'delete_file'> {
  return { value: changes, transfer: transferables(changes) };
}

export function createOpHandlers(ctx: OpContext): OpHandlers {
  const { runtime, harness, workspace, cells, interruptSignal, work } = ctx;
  // The worker's own calls into Python outside a cell (cell-scope.ts refuses any other).
  const host = <T>(run: () => T | Promise<T>) => cellScope.host(run);
  const preloadSteps: PreloadSteps = {
    load: async (name: string) => {
      const ended = ctx.ended();
      if (ended) throw ended;
      const wanted = runtime.packagesForImports([name]);
      return wanted.length > 0
        ? host(() => workspace.trusted(() => runtime.loadPackages(wanted), runtime.installFootprint(wanted)))
        : { loaded: [], failed: [] };
    },
    importModule: (name: string) => {
      const ended = ctx.ended();
      if (ended) throw ended;
      // An interrupt meant for a cell that waited behind this step is raised again by the host until it answers.
      Atomics.store(interruptSignal, 0, 0);
      return host(() => harness('import_modules', { names: [name] }));
    },
  };

  return {
    execute: async ({ id, code, limits, stream_output }) => withChanges(await cells.run(code, limits, live(id, stream_output))),
    run_file: async ({ id, path, limits, stream_output }) =>
      withChanges(await cells.run(workspace.readText(path), limits, { filename: path, ...live(id, stream_output) })),
    call_function: async ({ id, call, limits, stream_output }) =>
      withChanges(await cells.run('', limits, { call, ...live(id, stream_output) })),
    list_variables: async ({ filter, max_items, repr_chars }) => ({
      value: cells.namespaceOp('list_variables', { filter, max_items, repr_chars }),
    }),
    inspect_variable: async ({ name, detail, text_chars }) => ({
      value: cells.namespaceOp('inspect_variable', { name, detail, text_chars }),
    }),
    remove_variables: async ({ names }) => ({ value: cells.namespaceOp('remove_variables', { names }) }),
    reset: async ({ clear_files }) => {
      const { removed } = cells.namespaceOp('reset', { clear_files });
      return withChanges({ removed, changes: workspace.collectChanges() });
    },
    write_file: async ({ path, data, append, overwrite }) => {
      workspace.writeFile(path, data, { append, overwrite });
      return changesReply(workspace.collectChanges());
    },
    delete_file: async ({ path }) => {
      workspace.delete(path);
      return changesReply(workspace.collectChanges());
    },
    load_packages: async ({ packages }) => ({
      value: await host(() => workspace.trusted(() => runtime.loadPackages(packages), runtime.installFootprint(packages))),
    }),
    install_wheel: async ({ filename, data }) => {
      // A wheel the server fetched and verified (--allow-network); unpacked by the harness.
      const footprint = bufferFootprint(data);
      await host(() =>
        workspace.trusted(() => harness('install_wheel', { filename, data: Buffer.from(data).toString('base64') }), footprint),
      );
      return { value: null };
    },
    list_packages: async () => {
      const listing: PackageListing = { loaded: runtime.loadedPackages(), available: runtime.availablePackages() };
      return { value: listing };
    },
    preload: async () => {
      const report = await preload(ctx.preloadSet, preloadSteps, work, () => betweenSteps(ctx.holdSignal));
      // The packages' transit copies (each file read whole before it is unpacked) go now, while idle.
      if (ctx.preloadSet.length > 0) collectGarbage?.();
      return { value: report };
    },
    prime: async ({ cells: count }) => {
      const ran = await prime(count, {
        runCell: () => cells.run(PRIME_CELL, PRIME_LIMITS, { filename: PRIME_FILENAME, scratch: true }),
        stop: () => ctx.agentRequests() > 0 || ctx.ended() !== null,
        work,
        betweenSteps: () => betweenSteps(ctx.holdSignal),
      });
      return { value: { cells: ran } };
    },
  };
}
