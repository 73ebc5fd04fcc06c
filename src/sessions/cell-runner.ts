/**
 * Running one cell in a session whose turn it is (execute_code, run_file, call_function, and a restore's replays):
 * waiting for the background preload, the host's caps on the outcome, the file index, the history, and the state
 * directory. Also what a cell's run is called at the sessions layer: `CellRun`.
 */
import { emptyOutcome, type CellOutcome } from '../wire/contract.js';
import { PyodideMcpError } from '../errors.js';
import type { Config } from '../server/config.js';
import { PACKAGE_OP_FACTOR, type CellSource, type InterruptReason, type OutputStream } from './channel.js';
import type { FileRef } from './file-index.js';
import { callSource } from './history.js';
import type { Persistence } from './persistence.js';
import { applyChanges, type Session } from './registry.js';
import { capOutcome } from './reply-caps.js';
import type { CellTool, ViewEvents } from './view-events.js';

/** A cell's run as the session manager returns it: its outcome (capped by the host), and how it ended. */
export interface CellRun {
  outcome: CellOutcome;
  /** Files the call created or modified. */
  files: FileRef[];
  /** Set when the host interrupted the cell (and Python honoured it). */
  interrupted: InterruptReason | null;
  /** Set when the session had to be ended: it no longer exists. */
  terminated: PyodideMcpError | null;
  durationMs: number;
}

export class CellRunner {
  constructor(
    private readonly config: Config,
    /** Settles once the session has imported its preload set in the background (or failed to). */
    private readonly preloaded: (session: Session) => Promise<unknown>,
    private readonly persistence: Persistence,
    /** The view's record of sessions (src/view/): told when a cell starts and what it returned, after the host's caps. */
    private readonly events: ViewEvents,
  ) {}

  /** Runs a cell in a session whose turn it is; a session ended by it resolves with `terminated` set. */
  async run(session: Session, source: CellSource, timeoutMs: number, signal?: AbortSignal): Promise<CellRun> {
    const started = performance.now();
    // The view's Interrupt (--view-control) cancels the cell like a client's cancellation does: its signal follows ours.
    const view = this.events.cellStarted(session.id, toolOf(source), sourceText(source), timeoutMs, signal);
    const cell = view?.cell ?? null;
    if (view) signal = view.signal;
    try {
      // The preload set is imported in the background (PreloadScheduler). A cell that may import waits for it
      // first, outside its time limit: importing the stack (10-12 s of CPU here) is not the cell's time.
      if (!('code' in source) || /\bimport\b|__import__/.test(source.code)) await this.untilPreloaded(session, signal);
      // With a view served and watched, the cell's output goes to its viewers while it runs (within the cell's limits:
      // channel.ts).
      const onOutput =
        cell !== null && this.events.wantsLiveOutput(session.id)
          ? (stream: OutputStream, text: string) => this.events.cellOutput(session.id, cell, stream, text)
          : undefined;
      const ran = await session.channel.execute({ source, limits: this.config.limits, timeoutMs, signal, onOutput });
      // Security: the harness's own caps run in the user's realm; the host applies them again.
      const outcome = capOutcome(ran.outcome, this.config.limits);
      const { interrupted } = ran;
      session.executionCount = outcome.execution_count;
      const files = applyChanges(session, outcome.changes);
      const at = Date.now();
      session.history.add({ source: sourceText(source), outcome, completed: interrupted === null, at });
      await this.persistence.filesChanged(session, outcome.changes);
      const completed = interrupted === null;
      await this.persistence.cellRan(session, { source, timeoutMs, completed, executionCount: outcome.execution_count, at });
      const durationMs = performance.now() - started;
      this.events.cellFinished(session.id, cell, { outcome, interrupted, terminated: null, durationMs });
      return { outcome, files, interrupted, terminated: null, durationMs };
    } catch (error) {
      if (!(error instanceof PyodideMcpError) || !['EXEC_TIMEOUT', 'EXEC_CANCELLED', 'WORKER_CRASHED'].includes(error.code)) {
        // The view shows the cell as ended, with why, rather than running forever.
        const why = error instanceof Error ? error.message : String(error);
        this.events.cellFinished(session.id, cell, {
          outcome: emptyOutcome(session.executionCount + 1),
          interrupted: null,
          terminated: why,
          durationMs: performance.now() - started,
        });
        throw error;
      }
      // The session is gone (its channel's death buried it); this call reports how it ended.
      await session.channel.end(error);
      const ran = {
        outcome: emptyOutcome(session.executionCount + 1),
        interrupted: null,
        terminated: error,
        durationMs: performance.now() - started,
      };
      this.events.cellFinished(session.id, cell, { ...ran, terminated: error.message });
      return { ...ran, files: [] };
    }
  }

  /**
   * Waits until the session has imported its preload set (or failed to, or `signal` aborts, or a package load's
   * deadline passes: the cell then goes on, and imports what it needs within its own time limit).
   */
  private async untilPreloaded(session: Session, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return;
    let onAbort = () => {};
    const aborted = new Promise<void>((resolve) => (onAbort = resolve));
    signal?.addEventListener('abort', onAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.config.opTimeoutMs * PACKAGE_OP_FACTOR)));
    timer?.unref();
    try {
      await Promise.race([this.preloaded(session).catch(() => {}), aborted, late]);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

/** How a cell's source reads in the history (and an exported notebook). */
function sourceText(source: CellSource): string {
  if ('code' in source) return source.code;
  if ('path' in source) return `%run -i ${source.path}`;
  return callSource(source.call);
}

/** Which tool a cell source comes from, for the view (a registered tool's call is a function call). */
function toolOf(source: CellSource): CellTool {
  if ('code' in source) return 'execute_code';
  if ('path' in source) return 'run_file';
  return 'call_function';
}

/** What a queued cell holds, for the queue's byte bound (--max-queued-bytes). */
export function sourceBytes(source: CellSource): number {
  if ('code' in source) return source.code.length;
  if ('path' in source) return source.path.length;
  return JSON.stringify(source.call).length;
}
