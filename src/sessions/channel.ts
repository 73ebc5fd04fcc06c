/**
 * The server's side of one session: spawns it (src/sessions/spawn.ts), waits for its ready handshake, sends typed
 * requests and checks every reply against the contract (`request<Op>()` resolves to that op's reply type), runs
 * the timeout → interrupt → end sequence, and watches the session's memory. Only the session manager and
 * the warm pool create these.
 *
 * Security: whatever arrives from a session is untrusted. A message outside the contract, a reply that does not
 * match its request, a broken frame or memory above the limit ends THAT session (`onEnd` with the reason);
 * nothing a session sends can raise an error in the server.
 *
 * Over 300 lines on purpose: the request table, the deadlines and the end of a session share one state (pending
 * requests, the interrupt in flight, the end reason) that a split would have to pass around. The op kinds, a cell's
 * request and the error mapping are in channel-ops.ts.
 */
import {
  REPLIES,
  sessionMessageSchema,
  type Op,
  type ReplyOf,
  type RequestOf,
  type RuntimeInfo,
  type SessionRequest,
  type WireError,
} from '../wire/contract.js';
import { PyodideMcpError } from '../errors.js';
import {
  BACKGROUND_OPS,
  brokenRule,
  PACKAGE_OP_FACTOR,
  PACKAGE_OPS,
  LiveCellOutput,
  wireToError,
  type BackgroundOp,
  type CellRequest,
  type HostOp,
  type InterruptReason,
  type OutputStream,
} from './channel-ops.js';
import type { CellRun } from './cell-runner.js';
import type { MemoryWatchdog } from './memory-watchdog.js';
import { boundedSessionLog } from './session-log.js';
import { spawnSession, type SessionEndpoint, type SpawnOptions } from './spawn.js';

export {
  brokenRule,
  PACKAGE_OP_FACTOR,
  type BackgroundOp,
  type CellRequest,
  type CellSource,
  type HostOp,
  type InterruptReason,
  type OutputStream,
} from './channel-ops.js';

export interface ChannelOptions extends Omit<SpawnOptions, 'log'> {
  /** How long Python gets to honour an interrupt before the session is ended. */
  interruptGraceMs: number;
  /** Deadline of a request that runs no user code (--op-timeout), in ms; package ops get PACKAGE_OP_FACTOR times. */
  opTimeoutMs: number;
  /** Memory limit of a session process (process isolation), in MB. */
  maxSessionMemoryMb: number;
  watchdog: MemoryWatchdog;
  log: (message: string) => void;
  /** Receives the memory snapshot a worker made when booted with `init.makeSnapshot`. */
  onSnapshot?: (data: Uint8Array) => void;
}

interface Pending {
  op: Op;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** How often an unanswered interrupt is raised again (see interruptWithin()). */
const RESIGNAL_EVERY_MS = 100;

export class SessionChannel {
  readonly ready: Promise<RuntimeInfo>;
  /** True once `ready` has resolved. */
  isReady = false;
  /** Set once the session is gone (ended, crashed, broke the contract); every later call fails with it. */
  endReason: PyodideMcpError | null = null;
  private readonly endpoint: SessionEndpoint;
  private readonly pending = new Map<number, Pending>();
  private readonly endListeners: ((reason: PyodideMcpError) => void)[] = [];
  private readonly stopWatching: () => void;
  /** The session's bounded share of the server's log. */
  private readonly sessionLog: (text: string) => void;
  private nextId = 1;
  /** The session's background steps are held (releaseBackground() lets them go on). */
  private holding = false;
  /** The session process is stopped (SIGSTOP). */
  private stopped = false;
  /** The cell running with `onOutput`, or null: output messages for any other request are dropped. */
  private live: LiveCellOutput | null = null;
  /** Output messages received (kept or dropped), for tests and diagnostics. */
  outputMessages = 0;

  constructor(private readonly options: ChannelOptions) {
    // Security: one bound for all a session can put in the server's log, its process's descriptors and its worker's
    // log messages alike (src/sessions/session-log.ts).
    const log = boundedSessionLog(options.log, () => (this.endpoint?.pid ? `session process ${this.endpoint.pid}` : 'session'));
    this.sessionLog = log;
    this.endpoint = spawnSession({ ...options, log });
    const pid = this.endpoint.pid;
    this.stopWatching =
      pid === null
        ? () => {}
        : options.watchdog.watch({
            pid,
            limitBytes: options.maxSessionMemoryMb * 2 ** 20,
            onExceed: (rss) =>
              void this.end(
                brokenRule(
                  `it used ${Math.round(rss / 2 ** 20)} MB of memory, above the limit of ${options.maxSessionMemoryMb} MB per session (--max-session-memory-mb)`,
                ),
              ),
          });
    this.ready = new Promise<RuntimeInfo>((resolve, reject) => {
      this.onEnd(reject);
      this.endpoint.onMessage((raw) => {
        if (this.endReason) return;
        // Security: parse, never trust. Anything outside the contract ends the session.
        const parsed = sessionMessageSchema.safeParse(raw);
        if (!parsed.success) return void this.end(brokenRule(`sent a message outside the protocol (${parsed.error.issues[0]?.message})`));
        const message = parsed.data;
        switch (message.type) {
          case 'ready':
            this.isReady = true;
            return resolve(message.info);
          case 'boot_failed':
            return void this.end(new PyodideMcpError('BOOT_FAILED', `The Python runtime failed to start: ${message.error.message}`));
          case 'log':
            return this.sessionLog(message.message);
          case 'snapshot':
            if (options.init.makeSnapshot) options.onSnapshot?.(message.data);
            return;
          case 'fatal':
            return void this.end(brokenRule(message.reason.replace(/^The session /, '').replace(/\.$/, '')));
          case 'output':
            return this.liveOutput(message);
          case 'reply':
            return this.settle(message);
        }
      });
      this.endpoint.onExit(
        (description) => void this.end(new PyodideMcpError('WORKER_CRASHED', `The session's worker exited unexpectedly (${description}).`)),
      );
    });
    // A boot failure is reported through `ready`; this keeps an unobserved rejection from crashing us.
    this.ready.catch(() => {});
  }

  /** Process id of the session process (process isolation), or null for a worker thread of the server. */
  get pid(): number | null {
    return this.endpoint.pid;
  }

  /** Called once when the session is gone, with the reason later calls are given. */
  onEnd(listener: (reason: PyodideMcpError) => void): void {
    if (this.endReason) listener(this.endReason);
    else this.endListeners.push(listener);
  }

  /**
   * Sends a request that runs no user code, under a fixed deadline (--op-timeout; package ops longer). Past it the
   * session is interrupted (unless the op is read_file, which the session answers beside a running cell: an interrupt
   * would hit that cell), and if it still does not answer within the grace period it is ended with SESSION_DEAD: a
   * session is never left busy. Measured before this deadline: a `__del__` run by the JavaScript garbage collector
   * between cells left list_packages unanswered and the session busy forever.
   */
  async request<K extends HostOp>(body: RequestOf<K> & { type: K }): Promise<ReplyOf<K>> {
    const limitMs = this.options.opTimeoutMs * (PACKAGE_OPS.has(body.type) ? PACKAGE_OP_FACTOR : 1);
    let stopInterrupting = () => {};
    const end = () => {
      const flag = PACKAGE_OPS.has(body.type) ? `${PACKAGE_OP_FACTOR} × --op-timeout` : '--op-timeout';
      void this.end(
        new PyodideMcpError(
          'SESSION_DEAD',
          `The session did not answer ${body.type} within ${limitMs / 1000} s (${flag})${body.type === 'read_file' ? '' : ' nor stop when interrupted'}, so it was ended; its variables and files are lost.`,
        ),
      );
    };
    const deadline = setTimeout(() => {
      if (this.endReason) return;
      if (body.type === 'read_file') return end();
      stopInterrupting = this.interruptWithin(end);
    }, limitMs);
    deadline.unref();
    try {
      return await this.send<K>(body);
    } finally {
      clearTimeout(deadline);
      stopInterrupting();
    }
  }

  /**
   * Sends a request the session answers in the background (preload, prime), with no deadline of its own: it may
   * wait behind any number of an agent's cells (the worker runs it between requests), it never makes the session
   * busy, and a worker hung in it is ended by the deadline of the next request sent to it.
   */
  background<K extends BackgroundOp>(body: RequestOf<K> & { type: K }): Promise<ReplyOf<K>> {
    return this.send<K>(body);
  }

  /** True while a request other than a background one (preload, prime) waits for its answer. */
  get foregroundPending(): boolean {
    for (const { op } of this.pending.values()) if (!BACKGROUND_OPS.has(op)) return true;
    return false;
  }

  /** True while the session boots or runs a background request (preload, prime). */
  get backgroundRunning(): boolean {
    if (!this.isReady) return true;
    for (const { op } of this.pending.values()) if (BACKGROUND_OPS.has(op)) return true;
    return false;
  }

  /**
   * Holds the session's background work while calls an agent waits on run (src/sessions/background-gate.ts): its
   * preload and priming wait before their next step, and with `stop` (and process isolation) its process is stopped
   * whole, a boot included, unless it owes a call an answer. Any request other than a background one resumes it first.
   */
  holdBackground(stop: boolean): void {
    if (this.endReason) return;
    if (!this.holding) {
      this.holding = true;
      this.endpoint.hold(true);
    }
    const { stopper } = this.endpoint;
    if (stop && stopper && !this.stopped && !this.foregroundPending) {
      this.stopped = true;
      stopper.stop();
    }
  }

  /** Lets the session's background work go on (the process resumed, the steps released). */
  releaseBackground(): void {
    if (this.endReason) return;
    this.resumeProcess();
    if (this.holding) {
      this.holding = false;
      this.endpoint.hold(false);
    }
  }

  private resumeProcess(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.endpoint.stopper?.resume();
  }

  /** Sends a request as it is; resolves to the reply the contract defines for its op. */
  private send<K extends Op>(body: RequestOf<K> & { type: K }, id = this.nextId++): Promise<ReplyOf<K>> {
    if (this.endReason) return Promise.reject(this.endReason);
    // A call an agent waits on is never sent to a stopped process (its background steps stay held).
    if (!BACKGROUND_OPS.has(body.type)) this.resumeProcess();
    return new Promise<ReplyOf<K>>((resolve, reject) => {
      this.pending.set(id, { op: body.type, resolve: resolve as (value: unknown) => void, reject });
      this.endpoint.send({ ...body, id } as SessionRequest);
    });
  }

  /**
   * Runs a cell. On timeout or abort, Python is interrupted; if it does not stop within the grace period the
   * session is ended and the promise rejects.
   */
  async execute(options: CellRequest): Promise<Pick<CellRun, 'outcome' | 'interrupted'>> {
    const { source, limits, onOutput } = options;
    const id = this.nextId++;
    const stream = onOutput ? { stream_output: true } : {};
    if (onOutput) this.live = new LiveCellOutput(id, limits, onOutput);
    try {
      const { value: outcome, interrupted } = await this.withDeadline(options, () =>
        'code' in source
          ? this.send({ type: 'execute', code: source.code, limits, ...stream }, id)
          : 'path' in source
            ? this.send({ type: 'run_file', path: source.path, limits, ...stream }, id)
            : this.send({ type: 'call_function', call: source.call, limits, ...stream }, id),
      );
      return { outcome, interrupted };
    } finally {
      if (this.live?.id === id) this.live = null;
    }
  }

  /** A piece of the running cell's output: passed on within the cell's limits (LiveCellOutput), else dropped. */
  private liveOutput(message: { id: number; stream: OutputStream; text: string }): void {
    this.outputMessages++;
    this.live?.take(message.id, message.stream, message.text);
  }

  /**
   * Sends a request that runs user code outside a cell (a namespace op: a __repr__ or a property may loop) under the
   * same deadline as a cell. Interrupted, it rejects with EXEC_TIMEOUT / EXEC_CANCELLED and the session is intact.
   */
  async requestWithin<K extends Op>(
    body: RequestOf<K> & { type: K },
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<ReplyOf<K>> {
    let interrupted: InterruptReason | null = null;
    try {
      const result = await this.withDeadline(options, () => this.send<K>(body));
      interrupted = result.interrupted;
      return result.value;
    } catch (error) {
      interrupted ??= this.lastInterrupt;
      if (interrupted && !this.endReason) {
        throw new PyodideMcpError(
          interrupted === 'timeout' ? 'EXEC_TIMEOUT' : 'EXEC_CANCELLED',
          interrupted === 'timeout'
            ? `${body.type} exceeded the ${options.timeoutMs / 1000} s time limit (user code such as a __repr__ or a property ran too long) and was interrupted. The session and its variables are intact.`
            : `${body.type} was cancelled by the client. The session and its variables are intact.`,
        );
      }
      throw error;
    }
  }

  /** Why the last deadline-bound request was interrupted (for requestWithin's error). */
  private lastInterrupt: InterruptReason | null = null;

  /** Runs `send` with the timeout → interrupt → end sequence (see execute()). */
  private async withDeadline<T>(
    options: { timeoutMs: number; signal?: AbortSignal },
    send: () => Promise<T>,
  ): Promise<{ value: T; interrupted: InterruptReason | null }> {
    let interrupted: InterruptReason | null = null;
    this.lastInterrupt = null;
    let stopInterrupting = () => {};
    const interrupt = (reason: InterruptReason) => {
      if (interrupted || this.endReason) return;
      interrupted = this.lastInterrupt = reason;
      stopInterrupting = this.interruptWithin(() => {
        const what = reason === 'timeout' ? `exceeded its ${options.timeoutMs / 1000} s time limit` : 'was cancelled';
        void this.end(
          new PyodideMcpError(
            reason === 'timeout' ? 'EXEC_TIMEOUT' : 'EXEC_CANCELLED',
            `The code ${what} and did not respond to an interrupt within ${this.options.interruptGraceMs} ms, so its worker was terminated. The session's state is lost.`,
          ),
        );
      });
    };
    const deadline = setTimeout(() => interrupt('timeout'), options.timeoutMs);
    deadline.unref();
    const onAbort = () => interrupt('cancelled');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    try {
      const value = await send();
      return { value, interrupted };
    } finally {
      clearTimeout(deadline);
      stopInterrupting();
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Interrupts the session, raises the signal again every RESIGNAL_EVERY_MS, and calls `end` once the grace period
   * (--interrupt-grace) has passed; the returned function stops both (the reply came). Why repeat the signal: one is
   * no longer lost between the interpreter's read and reset of the buffer (the compare-exchange in
   * workers/thread/runtime/interrupt-signal.ts), but code can catch one KeyboardInterrupt and carry on, or be in C
   * when it lands. The grace period bounds the whole wait.
   */
  private interruptWithin(end: () => void): () => void {
    this.endpoint.interrupt();
    const resignal = setInterval(() => this.endpoint.interrupt(), RESIGNAL_EVERY_MS);
    resignal.unref();
    const grace = setTimeout(end, this.options.interruptGraceMs);
    grace.unref();
    return () => {
      clearInterval(resignal);
      clearTimeout(grace);
    };
  }

  /**
   * Ends the session: pending and later requests reject with `reason`, end listeners hear it, and the session's
   * process (or thread) is stopped. Resolves once it is. Safe to call more than once: the first reason stays.
   */
  async end(reason = new PyodideMcpError('SESSION_NOT_FOUND', 'The session was closed.')): Promise<void> {
    if (!this.endReason) {
      this.endReason = reason;
      this.stopWatching();
      for (const waiter of this.pending.values()) waiter.reject(reason);
      this.pending.clear();
      for (const listener of this.endListeners.splice(0)) listener(reason);
    }
    await this.endpoint.terminate();
  }

  private settle(message: { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireError }): void {
    const waiter = this.pending.get(message.id);
    if (!waiter) return void this.end(brokenRule(`answered a request it was never sent (id ${message.id})`));
    this.pending.delete(message.id);
    if (!message.ok) {
      // The worker reports its interpreter gone (or its workspace tampered with): the session is over, whatever the op.
      if (message.error.code === 'WORKER_CRASHED') {
        void this.end(wireToError(message.error));
        return waiter.reject(this.endReason!);
      }
      return waiter.reject(wireToError(message.error));
    }
    const value = REPLIES[waiter.op].safeParse(message.value);
    if (!value.success) {
      const issue = value.error.issues[0];
      void this.end(brokenRule(`sent an invalid ${waiter.op} reply (${issue?.path.join('.')}: ${issue?.message})`));
      return waiter.reject(this.endReason!);
    }
    waiter.resolve(value.data);
  }
}
