/**
 * run_file of a Jupyter notebook (.ipynb): its code cells run one after another, each as a cell of its own, as
 * execute_code runs code (so it has its own number, and the cell syntax execute_code accepts applies to it), until
 * one fails, or through all with continue_on_error. One reply: every cell's outcome in `notebook.cells` and, per
 * cell, a section of the text; the top-level fields read as the whole run (streams joined, the last result, the
 * first error, every figure and file).
 */
import type { ToolCallback } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { pipInstallNames } from '../python/pip-lines.js';
import { checkCodeLength } from '../sessions/input-checks.js';
import type { CellRun } from '../sessions/manager.js';
import { installPackages } from './tools/install-packages.js';
import type { ToolDeps } from './tools/shared.js';
import type { PackageFailure } from '../wire/contract.js';
import { explainLegacyError, mergeFailures, progressNotifier, shapeExecution } from './execution-reply.js';
import { fitToBudget, readable } from './execution-fit.js';
import { readImages, type Image } from './execution-figures.js';
import type { ExecutionResult } from './execution-schema.js';
import { codeCells, type notebookCellShape } from './notebook-cells.js';

type CellReport = z.infer<typeof notebookCellShape>;
/** The `extra` argument of a tool callback, reduced to what execution needs. */
type CallExtra = Parameters<ToolCallback<undefined>>[0];

/** Runs the notebook at `path` (workspace-relative) in the session, each code cell under `timeoutMs`. */
export async function runNotebook(
  deps: ToolDeps,
  sessionId: string,
  path: string,
  timeoutMs: number,
  continueOnError: boolean,
  extra: CallExtra,
): Promise<CallToolResult> {
  // Read like download_file's whole files: at most two at once server-wide (Slots in the session manager).
  const { cells, codeCells: total } = await deps.sessions.readWhole(sessionId, path, async (data) =>
    codeCells(path, new TextDecoder().decode(data)),
  );
  for (const cell of cells) checkCodeLength(deps.config, cell.code); // refused before any cell runs
  // `%pip install` lines of any cell: installed first, as execute_code does (a running cell cannot wait for the server).
  const pip = [...new Set(cells.flatMap((cell) => pipInstallNames(cell.code)))];
  const installFailures = pip.length > 0 ? (await installPackages(deps, sessionId, pip)).failed : [];
  let ran = 0;
  const stop = progressNotifier(extra, (elapsed) => ({
    progress: ran,
    total: cells.length,
    message: `cell ${ran + 1} of ${cells.length}, ${elapsed} s`,
  }));
  const runs: { index: number; execution: CellRun; reply: ExecutionResult }[] = [];
  try {
    for (const cell of cells) {
      const execution = await deps.sessions.execute(sessionId, { code: cell.code }, timeoutMs, extra.mcpReq.signal);
      explainLegacyError(deps, execution, cell.code);
      runs.push({ index: cell.index, execution, reply: shapeExecution(sessionId, execution, timeoutMs) });
      ran += 1;
      const failed = !runs.at(-1)!.reply.success;
      // A session that ended, or a cancelled call, runs nothing more; an error only stops without continue_on_error.
      if (failed && (!continueOnError || execution.terminated || execution.interrupted === 'cancelled' || extra.mcpReq.signal.aborted))
        break;
    }
  } finally {
    stop();
  }
  // Security: each cell's figures are read under the reply's budget; once the figures read so far fill it, later
  // cells' figures are not read at all (fitToBudget would drop them anyway), so a notebook of many figure cells
  // cannot make the server hold one budget per cell.
  const images: Image[] = [];
  let inlineBytes = 0;
  for (const { execution } of runs) {
    if (execution.terminated || inlineBytes >= deps.config.maxReplyBytes) continue;
    for (const image of await readImages(deps, sessionId, execution)) {
      if ('data' in image) inlineBytes += image.data.length;
      images.push(image);
    }
  }
  const reply = wholeRun(sessionId, path, total, cells.length - runs.length, runs, installFailures);
  const options = { maxReplyBytes: deps.config.maxReplyBytes, resourceLinks: deps.config.resourceLinks, newSession: false };
  return fitToBudget(reply, images, options, (shaped) => readableRun(shaped, runs));
}

/** The top-level reply: the run read as one (streams joined, last result, first error, all outputs). */
function wholeRun(
  sessionId: string,
  path: string,
  codeCellCount: number,
  notRun: number,
  runs: { index: number; reply: ExecutionResult }[],
  installFailures: PackageFailure[],
): ExecutionResult {
  const replies = runs.map((run) => run.reply);
  const last = replies.at(-1);
  const files = new Map(replies.flatMap((reply) => reply.files.map((file) => [file.path, file] as const)));
  const truncated: Record<string, number> = {};
  for (const reply of replies)
    for (const [field, amount] of Object.entries(reply.truncated ?? {})) truncated[field] = (truncated[field] ?? 0) + (amount ?? 0);
  const cells: CellReport[] = runs.map(({ index, reply }) => ({
    cell: index,
    execution_count: reply.execution_count,
    success: reply.success,
    duration_ms: reply.duration_ms,
    stdout: reply.stdout,
    stderr: reply.stderr,
    result: reply.result,
    error: reply.error,
  }));
  return {
    session_id: sessionId,
    success: replies.every((reply) => reply.success),
    stdout: replies.map((reply) => reply.stdout).join(''),
    stderr: replies.map((reply) => reply.stderr).join(''),
    result: last?.result ?? null,
    error: replies.find((reply) => !reply.success)?.error ?? null,
    execution_count: last?.execution_count ?? 0,
    duration_ms: Math.round(replies.reduce((sum, reply) => sum + reply.duration_ms, 0) * 100) / 100,
    files: [...files.values()],
    truncated: Object.keys(truncated).length > 0 ? (truncated as ExecutionResult['truncated']) : null,
    display: replies.flatMap((reply) => reply.display),
    loaded_packages: [...new Set(replies.flatMap((reply) => reply.loaded_packages))],
    failed_packages: mergeFailures(installFailures, ...replies.map((reply) => reply.failed_packages)),
    notebook: { path, code_cells: codeCellCount, not_run: notRun, cells },
  };
}

/** The text a model reads: what ran and what did not, then each cell's own reply text. */
function readableRun(reply: ExecutionResult, runs: { index: number; reply: ExecutionResult }[]): string {
  const notebook = reply.notebook!;
  const failed = runs.filter((run) => !run.reply.success).map((run) => `[${run.index}]`);
  const parts = [
    `notebook ${notebook.path}: ${notebook.code_cells} code cells, ${runs.length} run` +
      (failed.length > 0 ? `, failed: cell ${failed.join(', ')}` : ', all ok') +
      (notebook.not_run > 0 ? `; ${notebook.not_run} not run after the error (pass continue_on_error: true to run past errors)` : ''),
  ];
  // Packages of the notebook's %pip lines that failed to load (each cell's own failures are in its section).
  for (const failure of reply.failed_packages) {
    if (!runs.some((run) => run.reply.failed_packages.some((own) => own.name === failure.name))) {
      parts.push(`package ${failure.name} failed to load: ${failure.reason}`);
    }
  }
  // The cells' own texts, shrunk with the reply when it had to be cut (the structured cells are what was kept).
  runs.forEach((run, i) => {
    const kept = notebook.cells[i]!;
    parts.push(`--- notebook cell [${run.index}] ---\n${readable({ ...run.reply, ...kept, files: run.reply.files }, false)}`);
  });
  if (reply.truncated) parts.push(`truncated (characters omitted): ${JSON.stringify(reply.truncated)}`);
  return parts.join('\n');
}
