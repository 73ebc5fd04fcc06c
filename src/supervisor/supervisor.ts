/**
 * The supervisor of one session: starts the session's worker thread (sandboxed, empty environment, stdio
 * captured), relays the server's requests to it, checks everything the worker sends against the contract, keeps
 * the session's file contents (SessionFileStore) and answers `read_file` from them, even while the worker is busy.
 *
 * With process isolation (the default) it runs on the main thread of the session's own process
 * (src/supervisor/session-process.ts); with thread isolation, in the server. Either way the server checks its messages
 * again: in a session process it shares an address space and descriptors with user code, so it is not trusted.
 */
import { Worker } from 'node:worker_threads';
import {
  sessionMessageSchema,
  WORKER_REPLIES,
  type Op,
  type SessionMessage,
  type SessionRequest,
  type SupervisorOptions,
  type WireError,
  type WorkerFileChanges,
} from '../wire/contract.js';
import { CHANGES_ARE_REPLY, CHANGES_IN_OUTCOME } from '../wire/file-change-ops.js';
import { SESSION_WORKER_URL } from '../paths.js';
import { hardenWorkerIsolates, workerSandboxExecArgv } from './worker-sandbox.js';
import { QuotaViolation, SessionFileStore } from './file-store.js';

const SIGINT = 2;

/** What a supervisor sends to the server; file bytes only in `read_file` replies and the boot snapshot. */
export type Emit = (message: SessionMessage) => void;

export class Supervisor {
  private readonly worker: Worker;
  private readonly interruptSignal: Int32Array;
  /** 1 while the server holds the worker's background steps (preload, priming) between two steps; 0 otherwise. */
  private readonly holdSignal: Int32Array;
  private readonly files: SessionFileStore;
  /** Requests relayed to the worker and not answered yet: id → op, to check each reply against its op. */
  private readonly relayed = new Map<number, Op>();
  private ended = false;

  /**
   * `channelFd` (session processes only): the descriptor of the worker's own pipe to the server
   * (workers/thread/direct-channel.ts). Requests then go to the worker without passing here, except `read_file`, and
   * replies come back here only when they carry file bytes.
   */
  constructor(
    options: SupervisorOptions,
    private readonly emit: Emit,
    private readonly onEnd: (description: string) => void,
    private readonly channelFd: number | null = null,
  ) {
    this.files = new SessionFileStore(options.init.fileLimits);
    const interruptBuffer = new SharedArrayBuffer(4);
    this.interruptSignal = new Int32Array(interruptBuffer);
    const holdBuffer = new SharedArrayBuffer(4);
    this.holdSignal = new Int32Array(holdBuffer);
    // Security (src/supervisor/worker-sandbox.ts): no eval in worker contexts, capped WebAssembly memory.
    hardenWorkerIsolates({ maxWasmMemoryMb: options.maxWasmMemoryMb });
    this.worker = new Worker(SESSION_WORKER_URL, {
      // Security: the snapshot is this worker's own copy (structured clone), never memory another session boots from.
      // (Pyodide reads it through 32-bit views: a deserialized view that is not aligned gets an aligned copy.)
      workerData: {
        ...options.init,
        snapshot: aligned(options.init.snapshot),
        interruptBuffer,
        holdBuffer,
        ...(channelFd === null ? {} : { channelFd }),
      },
      // Security: the worker sees an empty environment, never the server's secrets.
      env: {},
      argv: [],
      // Security: Node's permission model for this worker only (read-only access to our code and the
      // distribution; no writes, processes, workers, addons). Never `[]` (that would inherit no restrictions).
      execArgv: workerSandboxExecArgv(options.init),
      // What the worker writes to its stdout/stderr is logged, never passed to a protocol stream.
      stdout: true,
      stderr: true,
      // 16 MB of stack (Node's default is 4): measured, deep recursion through C (repr of a 200,000-deep list)
      // overflows 4 MB below Python's default recursion limit; an overflow ends the session, more stack ends fewer.
      // Young generation 6 MB (2 MB semi-spaces; V8's default lets them grow to 16 MB each): the worker's JavaScript is
      // glue around the Python heap, and the default kept about 40 MB of nursery resident in every idle session.
      // Measured on a scientific session: 464 → 421 MB RSS; "1+1" round trip unchanged (interleaved, 3 rounds).
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb, maxYoungGenerationSizeMb: 6, stackSizeMb: 16 },
    });
    this.worker.stdout.on('data', (chunk: Buffer) => this.log(`[worker stdout] ${chunk.toString().trimEnd()}`));
    this.worker.stderr.on('data', (chunk: Buffer) => this.log(`[worker stderr] ${chunk.toString().trimEnd()}`));
    this.worker.on('message', (raw: unknown) => this.fromWorker(raw));
    this.worker.on('error', (error) => this.end(`the worker crashed: ${error.message}`));
    this.worker.on('exit', (code) => this.end(`the worker exited (exit code ${code})`));
  }

  /** Handles one request from the server (already parsed against the contract). */
  handle(request: SessionRequest): void {
    if (this.ended) return;
    if (request.type === 'read_file') {
      try {
        const page = this.files.read(request.path, request.offset, request.length);
        this.emit({ type: 'reply', id: request.id, ok: true, value: page });
      } catch (error) {
        this.emit({ type: 'reply', id: request.id, ok: false, error: { code: 'FILE_NOT_FOUND', message: (error as Error).message } });
      }
      return;
    }
    this.relayed.set(request.id, request.type);
    // Moved, not copied, when the bytes own their whole buffer (a pooled Buffer slice must never be detached).
    const data = 'data' in request ? request.data : null;
    const transfer = data && data.byteOffset === 0 && data.byteLength === data.buffer.byteLength ? [data.buffer as ArrayBuffer] : [];
    this.worker.postMessage(request, transfer);
  }

  /** Raises KeyboardInterrupt in the worker's Python (SIGINT into its interrupt buffer). */
  interrupt(): void {
    Atomics.store(this.interruptSignal, 0, SIGINT);
    // Wakes a cell blocked in time.sleep (workers/thread/blocking-sleep.ts) at once.
    Atomics.notify(this.interruptSignal, 0);
  }

  /**
   * Holds the worker's background steps (the preload's, the priming's) before their next step, or lets them go on:
   * a call an agent waits on runs meanwhile (src/sessions/background-gate.ts). A step already running finishes.
   */
  hold(on: boolean): void {
    Atomics.store(this.holdSignal, 0, on ? 1 : 0);
    if (!on) Atomics.notify(this.holdSignal, 0);
  }

  async terminate(): Promise<void> {
    this.ended = true;
    await this.worker.terminate();
  }

  private fromWorker(raw: unknown): void {
    if (this.ended) return;
    if (this.channelFd !== null && (raw as { type?: unknown } | null)?.type === 'routed') return this.fromDirectWorker(raw);
    // Security: the worker runs untrusted code; a message outside the contract ends the session.
    const parsed = sessionMessageSchema.safeParse(raw);
    if (!parsed.success) return this.breach(`sent a message outside the protocol (${parsed.error.issues[0]?.message})`);
    const message = parsed.data;
    if (message.type !== 'reply') {
      if (message.type === 'fatal') return this.breach(message.reason);
      // The boot's garbage (see spawn.ts) goes now, while the session is still idle.
      if (message.type === 'ready') (globalThis as { gc?: () => void }).gc?.();
      this.emit(message);
      return;
    }
    const op = this.relayed.get(message.id);
    if (op === undefined) return this.breach(`answered a request it was never sent (id ${message.id})`);
    this.relayed.delete(message.id);
    if (!message.ok) return this.emit(message);
    const value = WORKER_REPLIES[op].safeParse(message.value);
    if (!value.success)
      return this.breach(`sent an invalid ${op} reply (${value.error.issues[0]?.path.join('.')}: ${value.error.issues[0]?.message})`);
    try {
      this.emit({ ...message, value: this.storeFiles(op, value.data) });
    } catch (error) {
      if (error instanceof QuotaViolation) return this.breach(`went over its file limits: ${error.message}`);
      throw error;
    }
  }

  /**
   * A reply with file bytes from a worker that has its own pipe: the request never passed here, so the worker names
   * the op (it is as trusted as the rest of this process: the server checks the reply against its own request).
   */
  private fromDirectWorker(raw: unknown): void {
    const { op, reply } = raw as { op?: unknown; reply?: unknown };
    const id = (reply as { id?: unknown } | null)?.id;
    if (typeof op !== 'string' || !Object.hasOwn(WORKER_REPLIES, op) || typeof id !== 'number' || this.relayed.has(id)) {
      return this.breach('sent a routed reply outside the protocol');
    }
    this.relayed.set(id, op as Op);
    this.fromWorker(reply);
  }

  /** Keeps the bytes of changed files here and passes the change set on as metadata only. */
  private storeFiles(op: Op, value: unknown): unknown {
    if (CHANGES_IN_OUTCOME.has(op)) {
      const outcome = value as { changes: WorkerFileChanges };
      return { ...outcome, changes: this.files.apply(outcome.changes) };
    }
    if (CHANGES_ARE_REPLY.has(op)) return this.files.apply(value as WorkerFileChanges);
    return value;
  }

  /** The session broke a rule it cannot be allowed to break: tell the server (which ends it) and stop the worker. */
  private breach(reason: string): void {
    this.emit({ type: 'fatal', reason: `The session ${reason}.` });
    void this.terminate();
  }

  private end(description: string): void {
    if (this.ended) return;
    this.ended = true;
    for (const id of this.relayed.keys()) this.emit({ type: 'reply', id, ok: false, error: crashed(description) });
    this.relayed.clear();
    // With a direct pipe the requests in flight are unknown here: the server fails them when it reads this.
    if (this.channelFd !== null) this.emit({ type: 'fatal', reason: `The session lost its worker (${description}).` });
    this.onEnd(description);
  }

  private log(message: string): void {
    this.emit({ type: 'log', message });
  }
}

function aligned(bytes: Uint8Array | null): Uint8Array | null {
  return bytes && bytes.byteOffset % 8 !== 0 ? new Uint8Array(bytes) : bytes;
}

function crashed(description: string): WireError {
  return { code: 'WORKER_CRASHED', message: `The session's worker ended: ${description}.` };
}
