/**
 * The host side of one session worker: spawn, ready handshake, request ids, interrupt buffer,
 * timeout → interrupt → terminate, crash detection. Only src/sessions.ts creates these.
 */
import type { CellOutcome, FileChanges, HostRequest, OutputLimits, PackageListing, RuntimeInfo, WireError, WorkerInit, WorkerMessage } from '../contract.js';
import { isErrorCode, PyodideMcpError } from '../errors.js';
import { checkReply, parseWorkerMessage } from '../sandbox/worker-sandbox.js';
import { startSessionThread, type Isolation, type SessionThread } from './spawn.js';

/** Why a running cell was interrupted. */
export type InterruptReason = 'timeout' | 'cancelled';

export interface SessionWorkerOptions {
  init: Omit<WorkerInit, 'interruptBuffer'>;
  /** V8 heap cap for the worker's JavaScript, in MB (resourceLimits.maxOldGenerationSizeMb). */
  maxHeapMb: number;
  /** How long Python gets to honour an interrupt before the worker is terminated. */
  interruptGraceMs: number;
  log: (message: string) => void;
  /** Receives the memory snapshot a worker made when booted with `init.makeSnapshot`. */
  onSnapshot?: (data: Uint8Array) => void;
  /** Where the worker lives (default: a thread of this process). */
  isolation?: Isolation;
  /** Cap on each WebAssembly memory (the Python heap), in MB; process-wide (src/permissions.ts). Default 1024. */
  maxWasmMemoryMb?: number;
}

export interface ExecuteOptions {
  /** Code to run, or a workspace file to run (run_file). */
  source: { code: string } | { path: string };
  limits: OutputLimits;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** The outcome of a cell plus how it ended, from the host's point of view. */
export interface ExecuteResult {
  outcome: CellOutcome;
  /** Set when the host interrupted the cell (and Python honoured it). */
  interrupted: InterruptReason | null;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  /** The request, to check the reply against (security: a worker runs untrusted code). */
  request: DistributiveOmit<HostRequest, 'id'>;
}

/** How often an unanswered interrupt is raised again (see execute()). */
const RESIGNAL_EVERY_MS = 100;

export class SessionWorker {
  readonly ready: Promise<RuntimeInfo>;
  /** True once `ready` has resolved. */
  isReady = false;
  /** Set once the worker is gone (terminated, crashed, exited); every later call fails with it. */
  deadReason: PyodideMcpError | null = null;
  private readonly worker: SessionThread;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly options: SessionWorkerOptions) {
    this.worker = startSessionThread(options.isolation ?? 'thread', options);

    this.ready = new Promise<RuntimeInfo>((resolve, reject) => {
      let warned = false;
      this.worker.onMessage((raw: unknown) => {
        // Security: the worker runs untrusted code; drop anything that is not a well-formed protocol message.
        const message: WorkerMessage | null = parseWorkerMessage(raw);
        if (!message) {
          if (!warned) options.log(`session worker ${this.worker.id} sent a malformed message; dropped (further ones silently)`);
          warned = true;
          return;
        }
        switch (message.type) {
          case 'ready':
            this.isReady = true;
            resolve(message.info);
            return;
          case 'boot_failed':
            this.die(new PyodideMcpError('BOOT_FAILED', `The Python runtime failed to start: ${message.error.message}`));
            reject(this.deadReason);
            return;
          case 'log':
            options.log(message.message);
            return;
          case 'snapshot':
            if (options.init.makeSnapshot) options.onSnapshot?.(message.data);
            return;
          case 'reply': {
            const waiter = this.pending.get(message.id);
            if (!waiter) return;
            this.pending.delete(message.id);
            const problem = message.ok ? checkReply(waiter.request, message.value) : null;
            if (problem) waiter.reject(new PyodideMcpError('WORKER_ERROR', `The session's worker sent an invalid reply (${problem}).`));
            else if (message.ok) waiter.resolve(message.value);
            else waiter.reject(wireToError(message.error));
            return;
          }
        }
      });
      this.worker.onError((error) => {
        this.die(new PyodideMcpError('WORKER_CRASHED', `The session's worker crashed: ${error.message}`, { cause: error }));
        reject(this.deadReason);
      });
      this.worker.onExit((description) => {
        this.die(new PyodideMcpError('WORKER_CRASHED', `The session's worker exited unexpectedly (${description}).`));
        reject(this.deadReason);
      });
    });
    // A boot failure is reported through `ready`; this keeps an unobserved rejection from crashing us.
    this.ready.catch(() => {});
  }

  /**
   * Runs a cell. On timeout or abort, Python is interrupted through the shared buffer; if it does not
   * stop within the grace period the worker is terminated and the promise rejects.
   */
  async execute(options: ExecuteOptions): Promise<ExecuteResult> {
    let interrupted: InterruptReason | null = null;
    let graceTimer: NodeJS.Timeout | undefined;
    let resignal: NodeJS.Timeout | undefined;
    const interrupt = (reason: InterruptReason) => {
      if (interrupted || this.deadReason) return;
      interrupted = reason;
      this.worker.interrupt();
      // Why repeat it: Pyodide consumes the signal with a plain read-then-zero of the buffer, so a store that
      // lands between those two steps is lost (measured: about one interrupt in 25 on a tight loop). Until
      // the reply comes, the signal is raised again; the grace period still bounds the whole wait.
      resignal = setInterval(() => this.worker.interrupt(), RESIGNAL_EVERY_MS);
      resignal.unref();
      graceTimer = setTimeout(() => {
        const what = reason === 'timeout' ? `exceeded its ${options.timeoutMs / 1000} s time limit` : 'was cancelled';
        void this.terminate(
          new PyodideMcpError(
            reason === 'timeout' ? 'EXEC_TIMEOUT' : 'EXEC_CANCELLED',
            `The code ${what} and did not respond to an interrupt within ${this.options.interruptGraceMs} ms, so its worker was terminated. The session's state is lost.`,
          ),
        );
      }, this.options.interruptGraceMs);
      graceTimer.unref();
    };
    const deadline = setTimeout(() => interrupt('timeout'), options.timeoutMs);
    deadline.unref();
    const onAbort = () => interrupt('cancelled');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    try {
      const body =
        'code' in options.source
          ? ({ type: 'execute', code: options.source.code, limits: options.limits } as const)
          : ({ type: 'run_file', path: options.source.path, limits: options.limits } as const);
      const outcome = (await this.request(body)) as CellOutcome;
      return { outcome, interrupted };
    } finally {
      clearTimeout(deadline);
      clearTimeout(graceTimer);
      clearInterval(resignal);
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Loads offline packages into the running interpreter. */
  async loadPackages(packages: string[]): Promise<void> {
    await this.request({ type: 'load_packages', packages });
  }

  /** Writes a file in the workspace (path already normalised); returns the change set. */
  async writeFile(path: string, data: Uint8Array, append: boolean, overwrite: boolean): Promise<FileChanges> {
    return (await this.request({ type: 'write_file', path, data, append, overwrite })) as FileChanges;
  }

  /** Deletes a file or empty directory in the workspace; returns the change set. */
  async deleteFile(path: string): Promise<FileChanges> {
    return (await this.request({ type: 'delete_file', path })) as FileChanges;
  }

  /** Unpacks a pure-Python wheel the server fetched and verified into the interpreter's site-packages. */
  async installWheel(filename: string, data: Uint8Array): Promise<void> {
    await this.request({ type: 'install_wheel', filename, data });
  }

  /** Packages loaded in the interpreter and those it could load offline. */
  async listPackages(): Promise<PackageListing> {
    return (await this.request({ type: 'list_packages' })) as PackageListing;
  }

  /** Stops the worker; pending requests reject with `reason`. Safe to call more than once. */
  async terminate(reason = new PyodideMcpError('SESSION_NOT_FOUND', 'The session was closed.')): Promise<void> {
    this.die(reason);
    await this.worker.terminate();
  }

  private request(body: DistributiveOmit<HostRequest, 'id'>): Promise<unknown> {
    if (this.deadReason) return Promise.reject(this.deadReason);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, request: body });
      this.worker.post({ ...body, id } as HostRequest);
    });
  }

  private die(reason: PyodideMcpError): void {
    if (this.deadReason) return;
    this.deadReason = reason;
    for (const waiter of this.pending.values()) waiter.reject(reason);
    this.pending.clear();
  }
}

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

function wireToError(error: WireError): PyodideMcpError {
  return new PyodideMcpError(isErrorCode(error.code) ? error.code : 'WORKER_ERROR', error.message);
}
