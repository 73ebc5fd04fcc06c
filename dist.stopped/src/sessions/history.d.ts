/**
 * A session's cell history, for export_notebook: every cell run (code, run_file, call_function) with its outcome as
 * the server returned it (already capped), in order. It lives in the server's heap, so it is bounded twice: by cells
 * (--max-history-cells) and by the bytes of its text (--max-history-bytes). Beyond either the oldest cells are dropped
 * and counted, so an export can say what it is missing; a single cell larger than the byte bound is kept with its
 * outputs elided and a note saying so.
 *
 * Memory: the text counted is UTF-8 bytes, at least one per UTF-16 unit, and V8 stores a string in at most two bytes
 * per unit, so a history holds at most 2 × --max-history-bytes of strings (plus a few hundred bytes of objects per
 * cell). Measured: bench BENCH_ONLY=history.
 */
import type { CellOutcome, FunctionCall } from '../contract.js';
/** What the history keeps of an outcome: what a notebook shows (no change sets: a cell may list 1,000 files). */
export type HistoryOutcome = Pick<CellOutcome, 'stdout' | 'stderr' | 'result' | 'error' | 'execution_count' | 'display'>;
/** One executed cell. */
export interface HistoryCell {
    /** The source as a notebook shows it: the code, `%run -i path`, or the call written as Python. */
    source: string;
    outcome: HistoryOutcome;
    /** False when the cell was interrupted (time limit, cancellation); the outcome then carries the error. */
    completed: boolean;
    at: number;
    /** Set when the cell alone was larger than --max-history-bytes: why its outputs (and maybe part of its source) are gone. */
    elided: string | null;
    /** The bytes of its text, as counted against --max-history-bytes. */
    bytes: number;
}
export declare class CellHistory {
    private readonly maxCells;
    private readonly maxBytes;
    private cells;
    private total;
    /** Cells dropped because the history was full, by cells or bytes (not those cleared by a reset). */
    dropped: number;
    /** Cells run before the last reset_session (a fresh namespace starts a fresh history). */
    clearedByReset: number;
    /**
     * @param maxCells most cells kept (--max-history-cells, default 500); 0 keeps none
     * @param maxBytes most bytes of text kept (--max-history-bytes, default 8 MiB)
     */
    constructor(maxCells: number, maxBytes: number);
    /** Bytes of text the history holds now (each cell's `bytes`), at most --max-history-bytes. */
    get bytes(): number;
    add(ran: {
        source: string;
        outcome: CellOutcome | HistoryOutcome;
        completed: boolean;
        at: number;
    }): void;
    /** A fresh namespace (reset_session): the history of the old one is not the new one's. */
    clear(): void;
    all(): readonly HistoryCell[];
    /** A cell larger than the whole bound: kept, so the notebook shows it ran, with its outputs gone and a note why. */
    private elide;
}
/** The bytes (UTF-8) of a cell's stored text: source, streams, result, error, display items, the elision note. */
export declare function cellBytes(cell: Pick<HistoryCell, 'source' | 'outcome' | 'elided'>): number;
/** A call as Python source, for the notebook (`f(1, 'a', flag=True)`); the arguments are JSON values. */
export declare function callSource(call: FunctionCall): string;
/** A JSON value written as a Python literal (JSON's syntax except true/false/null). */
export declare function pythonLiteral(value: unknown): string;
