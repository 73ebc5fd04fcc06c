/**
 * Where a session's worker thread lives. `thread`: in this process (fast, light). `process`: in a child
 * process of its own that hosts the same worker thread and relays messages, so that a V8 fatal error
 * (e.g. a huge JavaScript array built from Python through `import js`) ends that child, not the server.
 * The session code above this (src/worker-host.ts) cannot tell the two apart.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import type { HostRequest, WorkerInit } from '../contract.js';
import { SESSION_PROCESS_URL, SESSION_WORKER_URL } from '../paths.js';
import { hardenWorkerIsolates, workerSandboxExecArgv } from '../sandbox/worker-sandbox.js';

/** How session workers are isolated from the server and from each other. */
export type Isolation = 'thread' | 'process';

export interface ThreadOptions {
  init: Omit<WorkerInit, 'interruptBuffer'>;
  /** V8 heap cap for the worker's JavaScript, in MB. */
  maxHeapMb: number;
  /** Cap on each WebAssembly memory (the Python heap), in MB. */
  maxWasmMemoryMb?: number;
  log: (message: string) => void;
}

/** A running session worker, wherever it lives. */
export interface SessionThread {
  /** Thread id (thread isolation) or process id (process isolation), for logs. */
  readonly id: number;
  post(message: HostRequest): void;
  /** Raises KeyboardInterrupt in the worker's Python (SIGINT into its interrupt buffer). */
  interrupt(): void;
  onMessage(listener: (raw: unknown) => void): void;
  onError(listener: (error: Error) => void): void;
  onExit(listener: (description: string) => void): void;
  terminate(): Promise<void>;
}

const SIGINT = 2;

/** Starts a session worker with the given isolation. */
export function startSessionThread(isolation: Isolation, options: ThreadOptions): SessionThread {
  return isolation === 'process' ? startInChildProcess(options) : startInThisProcess(options);
}

/** The worker thread itself: sandboxed, empty environment, stdout captured. Used by both isolations. */
export function startInThisProcess(options: ThreadOptions): SessionThread {
  const interruptBuffer = new SharedArrayBuffer(4);
  const interrupt = new Int32Array(interruptBuffer);
  // Security (src/permissions.ts): no eval in worker contexts, capped WebAssembly memory.
  hardenWorkerIsolates({ maxWasmMemoryMb: options.maxWasmMemoryMb });
  const worker = new Worker(SESSION_WORKER_URL, {
    workerData: { ...options.init, interruptBuffer } satisfies WorkerInit,
    // Security: the worker sees an empty environment, never the server's secrets.
    env: {},
    argv: [],
    // Security: Node's permission model for this worker only (read-only access to our code and the
    // distribution; no writes, processes, workers, addons). Never `[]` (that would inherit no restrictions).
    execArgv: workerSandboxExecArgv(options.init),
    // Anything the worker writes to its stdout is captured here and sent to the log, so that stray
    // output can never corrupt the MCP stream on our stdout.
    stdout: true,
    stderr: true,
    resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb },
  });
  worker.stdout.on('data', (chunk: Buffer) => options.log(`[worker stdout] ${chunk.toString().trimEnd()}`));
  worker.stderr.on('data', (chunk: Buffer) => options.log(`[worker stderr] ${chunk.toString().trimEnd()}`));
  return {
    id: worker.threadId,
    post: (message) => worker.postMessage(message),
    interrupt: () => Atomics.store(interrupt, 0, SIGINT),
    onMessage: (listener) => worker.on('message', listener),
    onError: (listener) => worker.on('error', listener),
    onExit: (listener) => worker.on('exit', (code) => listener(`exit code ${code}`)),
    terminate: async () => {
      await worker.terminate();
    },
  };
}

/** Messages from the server to a session process (besides the protocol's own requests). */
export type ProcessControl = { control: 'start'; options: Omit<ThreadOptions, 'log'> } | { control: 'interrupt' };

function startInChildProcess(options: ThreadOptions): SessionThread {
  const child: ChildProcess = fork(SESSION_PROCESS_URL, [], {
    // Security: the child sees an empty environment too; it only relays, user code runs in its worker.
    env: {},
    execArgv: [],
    serialization: 'advanced',
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  child.stdout?.on('data', (chunk: Buffer) => options.log(`[session process stdout] ${chunk.toString().trimEnd()}`));
  child.stderr?.on('data', (chunk: Buffer) => options.log(`[session process] ${chunk.toString().trimEnd()}`));
  // A snapshot in shared memory cannot cross a process boundary: send a copy.
  const snapshot = options.init.snapshot ? new Uint8Array(options.init.snapshot) : null;
  const start: ProcessControl = { control: 'start', options: { init: { ...options.init, snapshot }, maxHeapMb: options.maxHeapMb, maxWasmMemoryMb: options.maxWasmMemoryMb } };
  child.send(start);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const send = (message: HostRequest | ProcessControl) => {
    if (child.connected) child.send(message);
  };
  return {
    id: child.pid ?? -1,
    post: send,
    interrupt: () => send({ control: 'interrupt' }),
    onMessage: (listener) => child.on('message', listener),
    onError: (listener) => child.on('error', listener),
    onExit: (listener) => child.on('exit', (code, signal) => listener(signal ? `signal ${signal}` : `exit code ${code}`)),
    terminate: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
