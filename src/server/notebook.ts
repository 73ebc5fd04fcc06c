/**
 * A session's cell history as a Jupyter notebook (nbformat 4.5): one code cell per executed cell, in order, with its
 * stdout/stderr streams, rich outputs (figures as image/png), the value of its last expression (execute_result) and
 * its error. Pure: the caller reads the figure files and passes them in.
 */
import type { CellHistory, HistoryCell } from '../sessions/history.js';

/** The bytes of the figures the cells showed, by workspace path (base64), or why one is missing. */
export type FigureData = Map<string, { base64: string } | { missing: string }>;

type Output = Record<string, unknown>;

/** Text as nbformat stores it: a list of lines, each keeping its newline. */
function lines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function outputsOf(cell: HistoryCell, figures: FigureData): Output[] {
  const { outcome } = cell;
  const outputs: Output[] = [];
  if (outcome.stdout) outputs.push({ output_type: 'stream', name: 'stdout', text: lines(outcome.stdout) });
  if (outcome.stderr) outputs.push({ output_type: 'stream', name: 'stderr', text: lines(outcome.stderr) });
  for (const item of outcome.display) {
    if (item.text !== undefined) {
      outputs.push({ output_type: 'display_data', data: { [item.mime_type]: lines(item.text) }, metadata: {} });
    } else if (item.path && !item.mime_type.startsWith('image/')) {
      // A file the cell showed that is no image (a Plotly chart's HTML, about 3.5 MB with plotly.js): named, not
      // embedded; the session's MCP App draws a chart from the file itself (view/session-app.html).
      outputs.push({
        output_type: 'display_data',
        data: { 'text/plain': [`<${item.path}>`] },
        metadata: { pyodide_mcp: { file: item.path, mime_type: item.mime_type } },
      });
    } else if (item.path) {
      const figure = figures.get(item.path);
      if (figure && 'base64' in figure) {
        const data = item.mime_type === 'image/svg+xml' ? lines(Buffer.from(figure.base64, 'base64').toString('utf8')) : figure.base64;
        outputs.push({ output_type: 'display_data', data: { [item.mime_type]: data, 'text/plain': [`<${item.path}>`] }, metadata: {} });
      } else {
        const why = figure && 'missing' in figure ? figure.missing : 'not read';
        outputs.push({ output_type: 'display_data', data: { 'text/plain': [`(${item.path}: ${why})`] }, metadata: {} });
      }
    }
  }
  if (outcome.result !== null) {
    outputs.push({
      output_type: 'execute_result',
      execution_count: outcome.execution_count,
      data: { 'text/plain': lines(outcome.result) },
      metadata: {},
    });
  }
  if (cell.elided)
    outputs.push({ output_type: 'display_data', data: { 'text/plain': lines(`[pyodide-mcp] ${cell.elided}`) }, metadata: {} });
  if (outcome.error) {
    outputs.push({
      output_type: 'error',
      ename: outcome.error.type,
      evalue: outcome.error.message,
      traceback: outcome.error.traceback.split('\n').filter((line, i, all) => line !== '' || i < all.length - 1),
    });
  }
  return outputs;
}

/** The notebook object (JSON-ready). `python` is the session's Python version, for language_info. */
export function buildNotebook(history: CellHistory, figures: FigureData, meta: { sessionId: string; python: string }) {
  const cells: Record<string, unknown>[] = [];
  const notes: string[] = [];
  if (history.dropped > 0)
    notes.push(
      `${history.dropped} earlier cell(s) are not included: the server keeps the last cells only (--max-history-cells, --max-history-bytes).`,
    );
  if (history.clearedByReset > 0) notes.push(`${history.clearedByReset} cell(s) ran before the session was reset and are not included.`);
  if (notes.length > 0) cells.push({ cell_type: 'markdown', id: 'history-note', metadata: {}, source: lines(notes.join('\n\n')) });
  history.all().forEach((cell, index) => {
    cells.push({
      cell_type: 'code',
      id: `cell-${index + 1}`,
      execution_count: cell.outcome.execution_count,
      metadata: cellMetadata(cell),
      source: lines(cell.source),
      outputs: outputsOf(cell, figures),
    });
  });
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: 'python3', display_name: 'Python 3 (Pyodide)', language: 'python' },
      language_info: { name: 'python', version: meta.python, file_extension: '.py', mimetype: 'text/x-python' },
      pyodide_mcp: { session_id: meta.sessionId, exported_at: new Date().toISOString(), dropped_cells: history.dropped },
    },
    cells,
  };
}

function cellMetadata(cell: HistoryCell): Record<string, unknown> {
  const ours: Record<string, unknown> = {};
  if (!cell.completed) ours.interrupted = true;
  if (cell.elided) ours.elided = true;
  return Object.keys(ours).length > 0 ? { pyodide_mcp: ours } : {};
}

/**
 * A lower bound of the notebook's size in bytes, known before any figure is read: the history's text, each figure
 * that would be embedded (base64 for bitmaps: 4 bytes per 3; SVG as text), and a little per cell for the JSON around
 * them. export_notebook refuses a notebook whose lower bound is over the limit without reading a byte of its figures.
 *
 * @param sizeOf the current size of a figure file (the session's file index), null when it is gone
 * @param maxImageBytes figures larger than this are not embedded (--max-image-bytes)
 */
export function notebookBytesAtLeast(history: CellHistory, sizeOf: (path: string) => number | null, maxImageBytes: number): number {
  let total = history.bytes + 100 * history.all().length;
  const seen = new Set<string>();
  for (const cell of history.all()) {
    for (const item of cell.outcome.display) {
      if (!item.path || !item.mime_type.startsWith('image/') || seen.has(item.path)) continue;
      seen.add(item.path);
      const size = sizeOf(item.path);
      if (size === null || size > maxImageBytes) continue;
      total += item.mime_type === 'image/svg+xml' ? size : 4 * Math.ceil(size / 3);
    }
  }
  return total;
}

/** Workspace paths of the images the history's cells showed (to read before building). */
export function figurePaths(history: CellHistory): string[] {
  const paths = new Set<string>();
  for (const cell of history.all())
    for (const item of cell.outcome.display) if (item.path && item.mime_type.startsWith('image/')) paths.add(item.path);
  return [...paths];
}
