/**
 * Running a cell for a tool (execute_code, run_file, call_function, a registered tool) and making its MCP reply:
 * progress notifications while it runs, how it ended explained, figures as image blocks (execution-figures.ts), and
 * the whole reply fitted under --max-reply-bytes (execution-fit.ts). The schema is in execution-schema.ts.
 */
import type { ToolCallback } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { legacyHint } from '../python/legacy-hint.js';
import type { PackageFailure } from '../wire/contract.js';
import type { CellSource } from '../sessions/channel.js';
import { sessionUri } from '../sessions/host-paths.js';
import type { CellRun } from '../sessions/manager.js';
import { fitToBudget, type ReplyOptions } from './execution-fit.js';
import { readImages, type Image } from './execution-figures.js';
import type { ExecutionResult } from './execution-schema.js';
import type { ToolDeps } from './tools/shared.js';

export { executionOutputSchema, executionOutputShape, type ExecutionResult } from './execution-schema.js';

/** How often a long execution reports progress, when the client asked for it. */
const PROGRESS_EVERY_MS = 1000;

/** The `extra` argument of a tool callback, reduced to what execution needs. */
type CallExtra = Parameters<ToolCallback<undefined>>[0];

/**
 * Runs code (or a workspace file, or a function call) in a session, sending progress notifications while it runs
 * when the client asked for them, and makes the tool's reply. `newSession`: the call started the session (no
 * session_id given), and the reply's text says so. `installFailures`: packages the cell's `%pip install` lines named
 * that failed to load (installed by the server before the cell), reported with the cell's own.
 */
export async function runCellAndReply(
  deps: ToolDeps,
  sessionId: string,
  source: CellSource,
  timeoutMs: number,
  extra: CallExtra,
  { newSession = false, installFailures = [] }: { newSession?: boolean; installFailures?: PackageFailure[] } = {},
): Promise<CallToolResult> {
  const stop = progressNotifier(extra, (elapsed) => ({ progress: elapsed, total: timeoutMs / 1000, message: `running for ${elapsed} s` }));
  try {
    const execution = await deps.sessions.execute(sessionId, source, timeoutMs, extra.mcpReq.signal);
    if (installFailures.length > 0) {
      execution.outcome = { ...execution.outcome, failed_packages: mergeFailures(installFailures, execution.outcome.failed_packages) };
    }
    explainLegacyError(deps, execution, 'code' in source ? source.code : '');
    const images = execution.terminated ? [] : await readImages(deps, sessionId, execution);
    return executionReply(sessionId, execution, timeoutMs, images, {
      maxReplyBytes: deps.config.maxReplyBytes,
      resourceLinks: deps.config.resourceLinks,
      newSession,
    });
  } finally {
    stop();
  }
}

/** Package failures of several loads as one list: one entry per package, with the first reason given for it. */
export function mergeFailures(...lists: PackageFailure[][]): PackageFailure[] {
  const byName = new Map<string, PackageFailure>();
  for (const failure of lists.flat()) if (!byName.has(failure.name)) byName.set(failure.name, failure);
  return [...byName.values()];
}

/**
 * Sends the client a progress notification every PROGRESS_EVERY_MS, as `describe` words it for the seconds elapsed,
 * when the call asked for progress (a progressToken); returns the function that stops it.
 */
export function progressNotifier(
  extra: CallExtra,
  describe: (elapsedSeconds: number) => { progress: number; total: number; message: string },
): () => void {
  const progressToken = extra.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return () => {};
  return reportProgress((elapsed) =>
    extra.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, ...describe(elapsed) } }).catch(() => {}),
  );
}

/**
 * Calls `tick` with the seconds elapsed every PROGRESS_EVERY_MS until the returned stop() is called. The timer is
 * unref()ed: a running cell keeps the process alive through its worker, not through its progress reports.
 */
export function reportProgress(tick: (elapsedSeconds: number) => void): () => void {
  const started = Date.now();
  const timer = setInterval(() => tick(Math.round((Date.now() - started) / 1000)), PROGRESS_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * On the legacy runtime, an error that looks like code for newer Python or newer libraries gets one more line in its
 * message: which versions run and how to get the modern runtime (src/python/legacy-hint.ts).
 */
export function explainLegacyError(deps: ToolDeps, execution: CellRun, source: string): void {
  const error = execution.outcome.error;
  if (deps.sessions.distribution.kind !== 'legacy' || !error || execution.terminated) return;
  const hint = legacyHint(error, source, deps.sessions.facts);
  if (hint) execution.outcome = { ...execution.outcome, error: { ...error, message: `${error.message}\n${hint}` } };
}

/** Shapes an execution into the tool reply: caps, interrupts explained, images inline, under maxReplyBytes. */
export function executionReply(
  sessionId: string,
  execution: CellRun,
  timeoutMs: number,
  images: Image[],
  options: ReplyOptions,
): CallToolResult {
  return fitToBudget(shapeExecution(sessionId, execution, timeoutMs), execution.terminated ? [] : images, options);
}

/** The structured reply of an execution: how it ended explained in `error` (timeout, cancel, session ended). */
export function shapeExecution(sessionId: string, execution: CellRun, timeoutMs: number): ExecutionResult {
  const { interrupted, terminated } = execution;
  const { outcome } = execution;
  let error = outcome.error;
  if (terminated) {
    error = { type: terminated.code === 'EXEC_TIMEOUT' ? 'TimeoutError' : 'WorkerTerminated', message: terminated.message, traceback: '' };
  } else if (interrupted && error?.type === 'KeyboardInterrupt') {
    error =
      interrupted === 'timeout'
        ? {
            type: 'TimeoutError',
            message: `Execution exceeded the ${timeoutMs / 1000} s time limit and was interrupted. The session and its variables are intact; pass a larger timeout_seconds to allow more time.`,
            traceback: error.traceback,
          }
        : {
            type: 'CancelledError',
            message: 'Execution was cancelled by the client. The session and its variables are intact.',
            traceback: error.traceback,
          };
  }
  return {
    session_id: sessionId,
    success: error === null,
    stdout: outcome.stdout,
    stderr: outcome.stderr,
    result: outcome.result,
    error,
    execution_count: outcome.execution_count,
    duration_ms: Math.round(execution.durationMs * 100) / 100,
    files: execution.files,
    truncated: outcome.truncated,
    display: outcome.display.map((item) => (item.path ? { ...item, uri: sessionUri(sessionId, item.path) } : item)),
    loaded_packages: outcome.loaded_packages,
    failed_packages: outcome.failed_packages,
  };
}
