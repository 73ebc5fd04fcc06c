/**
 * What the server sends a session, apart from the channel that sends it: the op kinds and which deadline each runs
 * under, a cell's request, and the errors a session's failure maps to. Shared by the channel, the manager and the
 * warm pool.
 */
import type { FunctionCall, Op, OutputLimits, WireError } from '../wire/contract.js';
import { isErrorCode, PyodideMcpError } from '../errors.js';

/** What a cell runs: code, a workspace file (run_file) or a call of a namespace function (call_function). */
export type CellSource = { code: string } | { path: string } | { call: FunctionCall };

/** Why a running cell was interrupted. */
export type InterruptReason = 'timeout' | 'cancelled';

/** Ops that may run user code: sent by execute() or requestWithin(), under the cell's deadline. */
type UserCodeOp = 'execute' | 'run_file' | 'call_function' | 'list_variables' | 'inspect_variable' | 'remove_variables' | 'reset';
/** Ops the session answers in the background, between other requests (PreloadScheduler): background(). */
const BACKGROUND_OP_LIST = ['preload', 'prime'] as const satisfies readonly Op[];
export type BackgroundOp = (typeof BACKGROUND_OP_LIST)[number];
/** The same ops, for the channel: a request of any other op is one an agent waits on (it resumes a held session). */
export const BACKGROUND_OPS: ReadonlySet<Op> = new Set<Op>(BACKGROUND_OP_LIST);
/** Ops that run no user code: request(), under the fixed deadline of --op-timeout (package ops: PACKAGE_OP_FACTOR times). */
export type HostOp = Exclude<Op, UserCodeOp | BackgroundOp>;

/** How many times --op-timeout a package load or wheel install gets (offline loads of the scientific stack: 10-12 s of CPU). */
export const PACKAGE_OP_FACTOR = 10;
export const PACKAGE_OPS: ReadonlySet<Op> = new Set<Op>(['load_packages', 'install_wheel']);

/** A cell to run, as execute() sends it. */
export interface CellRequest {
  /** Code to run, a workspace file to run (run_file), or a namespace function to call (call_function). */
  source: CellSource;
  limits: OutputLimits;
  timeoutMs: number;
  signal?: AbortSignal;
  /**
   * Called with the cell's output while it runs (the browser view): the session is asked for it only when this is
   * set, and what it sends is kept to the cell's own stdout and stderr limits (SessionChannel).
   */
  onOutput?: (stream: OutputStream, text: string) => void;
}

/** A cell's two output streams. */
export type OutputStream = 'stdout' | 'stderr';

/**
 * The output a cell running with `onOutput` may still pass on while it runs. Security: what a session sends is
 * untrusted; a piece is passed on only for this cell's request (a late piece of an earlier cell, which came on the
 * other pipe than its reply, is dropped), and each stream only up to the cell's own limit (OutputLimits), so a session
 * cannot make the server pass on more than the cell's reply could carry. Holds two counters, never the text.
 */
export class LiveCellOutput {
  private stdoutLeft: number;
  private stderrLeft: number;

  constructor(
    /** The cell's request id. */
    readonly id: number,
    limits: OutputLimits,
    private readonly onOutput: (stream: OutputStream, text: string) => void,
  ) {
    this.stdoutLeft = limits.stdout;
    this.stderrLeft = limits.stderr;
  }

  /** A piece the session sent for request `id` (its size already bounded by the contract); true when passed on. */
  take(id: number, stream: OutputStream, text: string): boolean {
    if (id !== this.id || text.length === 0) return false;
    const left = stream === 'stdout' ? this.stdoutLeft : this.stderrLeft;
    if (left <= 0) return false;
    const kept = text.length > left ? text.slice(0, left) : text;
    if (stream === 'stdout') this.stdoutLeft -= kept.length;
    else this.stderrLeft -= kept.length;
    this.onOutput(stream, kept);
    return true;
  }
}

/** The reason a session that broke a rule is ended with (`why` completes "The session …"). */
export function brokenRule(why: string): PyodideMcpError {
  return new PyodideMcpError('WORKER_CRASHED', `The session ${why}; it was ended.`);
}

export function wireToError(error: WireError): PyodideMcpError {
  return new PyodideMcpError(isErrorCode(error.code) ? error.code : 'WORKER_ERROR', error.message);
}
