/**
 * A session's cell history, for export_notebook: every cell run (code, run_file, call_function) with its outcome as
 * the server returned it (already capped), in order. Bounded: beyond `maxCells` the oldest cells are dropped and
 * counted, so an export can say what it is missing.
 */
import type { CellOutcome, FunctionCall } from '../contract.js';

/** One executed cell. */
export interface HistoryCell {
  /** The source as a notebook shows it: the code, `%run -i path`, or the call written as Python. */
  source: string;
  outcome: CellOutcome;
  /** False when the cell was interrupted (time limit, cancellation); the outcome then carries the error. */
  completed: boolean;
  at: number;
}

export class CellHistory {
  private cells: HistoryCell[] = [];
  /** Cells dropped because the history was full (not those cleared by a reset). */
  dropped = 0;
  /** Cells run before the last reset_session (a fresh namespace starts a fresh history). */
  clearedByReset = 0;

  /** @param maxCells most cells kept (--max-history-cells); 0 keeps none */
  constructor(private readonly maxCells: number) {}

  add(cell: HistoryCell): void {
    this.cells.push(cell);
    if (this.cells.length > this.maxCells) {
      const excess = this.cells.length - this.maxCells;
      this.cells.splice(0, excess);
      this.dropped += excess;
    }
  }

  /** A fresh namespace (reset_session): the history of the old one is not the new one's. */
  clear(): void {
    this.clearedByReset += this.cells.length;
    this.cells = [];
    this.dropped = 0;
  }

  all(): readonly HistoryCell[] {
    return this.cells;
  }
}

/** A call as Python source, for the notebook (`f(1, 'a', flag=True)`); the arguments are JSON values. */
export function callSource(call: FunctionCall): string {
  const args = [...call.args.map(pythonLiteral), ...Object.entries(call.kwargs).map(([k, v]) => `${k}=${pythonLiteral(v)}`)];
  return `${call.name}(${args.join(', ')})`;
}

/** A JSON value written as a Python literal (JSON's syntax except true/false/null). */
export function pythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'None';
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pythonLiteral(v)}`)
      .join(', ')}}`;
  }
  return 'None';
}
