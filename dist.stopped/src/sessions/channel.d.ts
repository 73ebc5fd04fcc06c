/**
 * The server's side of one session: spawns it (src/sessions/spawn.ts), waits for its ready handshake, sends typed
 * requests and checks every reply against the contract (`request<Op>()` resolves to that op's reply type), runs
 * the timeout → interrupt → terminate sequence, and watches the session's memory. Only the session manager and
 * the warm pool create these.
 *
 * Security: whatever arrives from a session is untrusted. A message outside the contract, a reply that does not
 * match its request, a broken frame or memory above the limit ends THAT session (`onDeath` with the reason);
 * nothing a session sends can raise an error in the server.
 */
import { type CellOutcome, type FunctionCall, type Op, type OutputLimits, type ReplyOf, type RequestOf, type RuntimeInfo } from '../contract.js';
import { PyodideMcpError } from '../errors.js';
import type { MemoryWatchdog } from '../sandbox/memory-watchdog.js';
import { type SpawnOptions } from './spawn.js';
/** What a cell runs: code, a workspace file (run_file) or a call of a namespace function (call_function). */
export type CellSource = {
    code: string;
} | {
    path: string;
} | {
    call: FunctionCall;
};
/** Why a running cell was interrupted. */
export type InterruptReason = 'timeout' | 'cancelled';
export interface ChannelOptions extends Omit<SpawnOptions, 'log'> {
    /** How long Python gets to honour an interrupt before the session is terminated. */
    interruptGraceMs: number;
    /** Memory limit of a session process (process isolation), in MB. */
    maxSessionMemoryMb: number;
    watchdog: MemoryWatchdog;
    log: (message: string) => void;
    /** Receives the memory snapshot a worker made when booted with `init.makeSnapshot`. */
    onSnapshot?: (data: Uint8Array) => void;
}
export interface ExecuteOptions {
    /** Code to run, a workspace file to run (run_file), or a namespace function to call (call_function). */
    source: CellSource;
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
export declare class SessionChannel {
    private readonly options;
    readonly ready: Promise<RuntimeInfo>;
    /** True once `ready` has resolved. */
    isReady: boolean;
    /** Set once the session is gone (terminated, crashed, broke the contract); every later call fails with it. */
    deadReason: PyodideMcpError | null;
    private readonly endpoint;
    private readonly pending;
    private readonly deathListeners;
    private readonly stopWatching;
    private nextId;
    constructor(options: ChannelOptions);
    /** Called once when the session is gone, with the reason later calls are given. */
    onDeath(listener: (reason: PyodideMcpError) => void): void;
    /** Sends a request; resolves to the reply the contract defines for its op. */
    request<K extends Op>(body: RequestOf<K> & {
        type: K;
    }): Promise<ReplyOf<K>>;
    /**
     * Runs a cell. On timeout or abort, Python is interrupted; if it does not stop within the grace period the
     * session is terminated and the promise rejects.
     */
    execute(options: ExecuteOptions): Promise<ExecuteResult>;
    /**
     * Sends a request that runs user code outside a cell (a namespace op: a __repr__ or a property may loop) under the
     * same deadline as a cell. Interrupted, it rejects with EXEC_TIMEOUT / EXEC_CANCELLED and the session is intact.
     */
    requestWithin<K extends Op>(body: RequestOf<K> & {
        type: K;
    }, options: {
        timeoutMs: number;
        signal?: AbortSignal;
    }): Promise<ReplyOf<K>>;
    /** Why the last deadline-bound request was interrupted (for requestWithin's error). */
    private lastInterrupt;
    /** Runs `send` with the timeout → interrupt → terminate sequence (see execute()). */
    private withDeadline;
    /** Ends the session because it broke a rule (`why` completes "The session …"). */
    kill(why: string): void;
    /** Stops the session; pending requests reject with `reason`. Safe to call more than once. */
    terminate(reason?: PyodideMcpError): Promise<void>;
    private settle;
    private die;
}
