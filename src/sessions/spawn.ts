/**
 * Where a session lives. `process` (the default): a child process of its own, running the session's supervisor
 * and worker thread, connected to the server by two framed pipes (fd 3 the supervisor's, fd 4 its worker's); nothing
 * in it is shared with another session or with the server (no snapshot buffer, no MCP stream descriptor, no
 * environment). `thread`: the supervisor runs in the server and the worker is a thread of the server (faster and
 * lighter; not a security boundary between sessions). The channel above (src/sessions/channel.ts) cannot tell the two
 * apart.
 */
import { spawn } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { Isolation, ProcessControl, SessionRequest, SupervisorOptions } from '../wire/contract.js';
import { SESSION_PROCESS_PATH } from '../paths.js';
import { FrameDecoder, FrameError, writeFrame } from '../wire/frames.js';
import { Supervisor } from '../supervisor/supervisor.js';

/** A running session, wherever it lives. Everything it reports through `onMessage` is untrusted, unparsed data. */
export interface SessionEndpoint {
  /** Process id of the session process (process isolation), for the memory watchdog; null for a thread. */
  readonly pid: number | null;
  send(request: SessionRequest): void;
  /** Raises KeyboardInterrupt in the session's Python. */
  interrupt(): void;
  /** Holds the worker's background steps before their next one (true), or lets them go on (false). */
  hold(on: boolean): void;
  /**
   * Stops the session process (SIGSTOP) and lets it go on (SIGCONT): every thread of it, a boot's compile included.
   * Null for a thread, which cannot be stopped alone.
   */
  readonly stopper: { stop(): void; resume(): void } | null;
  onMessage(listener: (raw: unknown) => void): void;
  /** The session ended on its own, or broke the framing (`description` says which). */
  onExit(listener: (description: string) => void): void;
  terminate(): Promise<void>;
}

export interface SpawnOptions extends SupervisorOptions {
  isolation: Isolation;
  /** Largest frame accepted from a session process, in bytes. */
  maxFrameBytes: number;
  /** Where the session process's raw stdout/stderr go: the session's bounded log (src/sessions/session-log.ts). */
  log: (message: string) => void;
}

export function spawnSession(options: SpawnOptions): SessionEndpoint {
  return options.isolation === 'process' ? inChildProcess(options) : inThisProcess(options);
}

function inThisProcess(options: SpawnOptions): SessionEndpoint {
  let onMessage: (raw: unknown) => void = () => {};
  let onExit: (description: string) => void = () => {};
  const supervisor = new Supervisor(
    { init: options.init, maxHeapMb: options.maxHeapMb, maxWasmMemoryMb: options.maxWasmMemoryMb },
    (message) => onMessage(message),
    (description) => onExit(description),
  );
  return {
    pid: null,
    // The supervisor moves byte payloads to the worker: they get a buffer of their own first, so the caller's is
    // never detached (a session process gets its copy by serialization instead).
    send: (request) => supervisor.handle('data' in request ? { ...request, data: new Uint8Array(request.data) } : request),
    interrupt: () => supervisor.interrupt(),
    hold: (on) => supervisor.hold(on),
    stopper: null,
    onMessage: (listener) => (onMessage = listener),
    onExit: (listener) => (onExit = listener),
    terminate: () => supervisor.terminate(),
  };
}

/**
 * glibc's malloc for session processes: blocks of 32 KB and more (package files, the snapshot's transit copies, the
 * compilers' scratch memory) always get mappings of their own, returned to the system when freed, instead of staying
 * in an arena once glibc's adaptive threshold has risen; and two arenas, not eight per core. Ignored by other C
 * libraries. Measured on an idle scientific session (legacy, stack imported): at a 128 KB threshold 532-539 → 499-501
 * MB RSS (bare modern session 230-244 → 199-215 MB); lowering it to 32 KB, what compiling the side modules left free
 * inside the arenas goes back too: 384-394 → 374 MB on Node 20, 325 → 310 MB on Node 24 (as much as calling
 * glibc's malloc_trim afterwards gave: 371 and 309 MB), with no change in import time beyond the spread between runs.
 */
const MALLOC_TUNABLES = 'glibc.malloc.mmap_threshold=32768:glibc.malloc.arena_max=2';

function inChildProcess(options: SpawnOptions): SessionEndpoint {
  // --expose-gc: once the worker is up, the supervisor and the worker each collect the boot's garbage (the copies of
  // the 31 MB snapshot it arrived in): measured 310 → 265 MB RSS per idle bare session. The worker's `gc` global is
  // removed with every other non-allow-listed global before user code runs.
  // --max-semi-space-size=1: the main thread's nursery (the supervisor's JavaScript is small and, with the worker's
  // own pipe, off the call path) stays at 1 MB semi-spaces instead of growing to 16. Measured on idle scientific
  // sessions, 4 pairs each: 0-22 MB less RSS (Node 20), 2-8 MB (Node 24); the worker's nursery has its own cap.
  const child = spawn(process.execPath, ['--expose-gc', '--max-semi-space-size=1', SESSION_PROCESS_PATH], {
    // Security: an environment with nothing of the server's, and stdio that is not the server's: no stdin,
    // stdout/stderr only logged. fd 3 is the supervisor's channel to the server (start, interrupt, read_file, and
    // what the worker does not send itself); fd 4 is the worker's own (requests, and replies without file bytes:
    // workers/thread/direct-channel.ts), which saves each call a relay through the process's main thread.
    env: { GLIBC_TUNABLES: MALLOC_TUNABLES },
    stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'],
  });
  const channel = child.stdio[3] as Readable & Writable;
  const workerChannel = child.stdio[4] as Readable & Writable;
  const messageListeners: ((raw: unknown) => void)[] = [];
  const exitListeners: ((description: string) => void)[] = [];
  let ended = false;
  const end = (description: string) => {
    if (ended) return;
    ended = true;
    for (const listener of exitListeners) listener(description);
  };
  // Security: user code can write to these descriptors directly; the log they go to is bounded per session.
  child.stdout!.on('data', (chunk: Buffer) => options.log(`[stdout] ${chunk.toString().trimEnd()}`));
  child.stderr!.on('data', (chunk: Buffer) => options.log(chunk.toString().trimEnd()));
  // Both pipes carry the same kind of messages, each in its own frame stream; replies match requests by id.
  for (const pipe of [channel, workerChannel]) {
    const decoder = new FrameDecoder(options.maxFrameBytes);
    pipe.on('data', (chunk: Buffer) => {
      if (ended) return;
      let messages: unknown[];
      try {
        messages = decoder.push(chunk);
      } catch (error) {
        if (!(error instanceof FrameError)) throw error;
        // Security: garbage on either pipe is that session's death, never an error of the server.
        child.kill('SIGKILL');
        return end(`the session process broke the channel protocol: ${error.message}`);
      }
      for (const message of messages) for (const listener of messageListeners) listener(message);
    });
    pipe.on('error', () => {}); // the exit handler reports the end
  }
  child.on('error', (error) => end(`the session process could not run: ${error.message}`));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.on('exit', (code, signal) =>
    end(signal ? `the session process was killed (${signal})` : `the session process exited (code ${code})`),
  );
  const signal = (name: 'SIGSTOP' | 'SIGCONT') => {
    if (!ended && child.exitCode === null && child.signalCode === null) child.kill(name);
  };
  const send = (control: ProcessControl) => {
    if (!ended && channel.writable) writeFrame(channel, control);
  };
  send({ control: 'start', options: { init: options.init, maxHeapMb: options.maxHeapMb, maxWasmMemoryMb: options.maxWasmMemoryMb } });
  return {
    pid: child.pid ?? null,
    // read_file is answered by the supervisor from the files it keeps, even while the worker is busy.
    send: (request) =>
      request.type === 'read_file'
        ? send({ control: 'request', request })
        : !ended && workerChannel.writable && writeFrame(workerChannel, request),
    interrupt: () => send({ control: 'interrupt' }),
    hold: (on) => send({ control: 'hold', hold: on }),
    // Windows has no SIGSTOP.
    stopper:
      process.platform === 'win32'
        ? null
        : {
            // A stopped process cannot read its pipes: the channel never stops one that owes a call an answer, and resumes
            // it before it sends one (src/sessions/channel.ts). Errors (the process is gone) are the exit handler's to report.
            stop: () => signal('SIGSTOP'),
            resume: () => signal('SIGCONT'),
          },
    onMessage: (listener) => messageListeners.push(listener),
    onExit: (listener) => exitListeners.push(listener),
    terminate: async () => {
      ended = true;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
