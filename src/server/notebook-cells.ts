/**
 * A Jupyter notebook (.ipynb, nbformat 4) read for run_file: its code cells in order, and the shape of the reply's
 * `notebook` field. Pure: src/server/notebook-run.ts reads the file and runs the cells.
 */
import { z } from 'zod';
import { PyodideMcpError } from '../errors.js';
import { countField, orNull } from './tools/fields.js';

/** One code cell's outcome in a notebook run. */
export const notebookCellShape = z.object({
  cell: countField("Index of the cell in the notebook's cells (every cell type counted, from 0)"),
  execution_count: countField('Number of this cell in the session'),
  success: z.boolean(),
  duration_ms: z.number(),
  stdout: z.string(),
  stderr: z.string(),
  result: orNull(z.string(), 'repr() of the last expression, or null'),
  error: z.object({ type: z.string(), message: z.string(), traceback: z.string() }).nullable(),
});

/** The `notebook` field of run_file's reply for a .ipynb. */
export const notebookRunShape = z.object({
  path: z.string().describe('The notebook run'),
  code_cells: countField('Code cells in the notebook (empty ones are not run)'),
  not_run: countField('Code cells left unrun because an earlier one failed (continue_on_error runs them)'),
  cells: z.array(notebookCellShape).describe('Each code cell run, in order'),
});

/** A code cell to run: its index among all the notebook's cells and its source. */
export interface CodeCell {
  index: number;
  code: string;
}

/** The code cells of a notebook's JSON text, in order (empty ones left out), or INVALID_INPUT saying what is wrong. */
export function codeCells(path: string, text: string): { cells: CodeCell[]; codeCells: number } {
  let notebook: unknown;
  try {
    notebook = JSON.parse(text);
  } catch (error) {
    throw notANotebook(path, `not JSON (${(error as Error).message})`);
  }
  const cells = (notebook as { cells?: unknown } | null)?.cells;
  if (!Array.isArray(cells)) {
    const old = (notebook as { worksheets?: unknown } | null)?.worksheets !== undefined;
    throw notANotebook(path, old ? 'nbformat 3 (worksheets); save it as nbformat 4 first' : 'it has no "cells" list');
  }
  const code: CodeCell[] = [];
  let codeCount = 0;
  cells.forEach((cell: unknown, index) => {
    const { cell_type, source } = (cell ?? {}) as { cell_type?: unknown; source?: unknown };
    if (cell_type !== 'code') return;
    codeCount += 1;
    const lines = typeof source === 'string' ? [source] : source;
    if (!Array.isArray(lines) || !lines.every((line) => typeof line === 'string'))
      throw notANotebook(path, `cell ${index} has a source that is neither a string nor a list of strings`);
    const joined = lines.join('');
    if (joined.trim() !== '') code.push({ index, code: joined });
  });
  return { cells: code, codeCells: codeCount };
}

function notANotebook(path: string, why: string): PyodideMcpError {
  return new PyodideMcpError('INVALID_INPUT', `${path} is not a Jupyter notebook run_file can run: ${why}.`);
}
