/**
 * A session's cell history as a Jupyter notebook (nbformat 4.5): one code cell per executed cell, in order, with its
 * stdout/stderr streams, rich outputs (figures as image/png), the value of its last expression (execute_result) and
 * its error. Pure: the caller reads the figure files and passes them in.
 */
import type { CellHistory } from '../sessions/history.js';
/** The bytes of the figures the cells showed, by workspace path (base64), or why one is missing. */
export type FigureData = Map<string, {
    base64: string;
} | {
    missing: string;
}>;
/** The notebook object (JSON-ready). `python` is the session's Python version, for language_info. */
export declare function buildNotebook(history: CellHistory, figures: FigureData, meta: {
    sessionId: string;
    python: string;
}): {
    nbformat: number;
    nbformat_minor: number;
    metadata: {
        kernelspec: {
            name: string;
            display_name: string;
            language: string;
        };
        language_info: {
            name: string;
            version: string;
            file_extension: string;
            mimetype: string;
        };
        pyodide_mcp: {
            session_id: string;
            exported_at: string;
            dropped_cells: number;
        };
    };
    cells: Record<string, unknown>[];
};
/**
 * A lower bound of the notebook's size in bytes, known before any figure is read: the history's text, each figure
 * that would be embedded (base64 for bitmaps: 4 bytes per 3; SVG as text), and a little per cell for the JSON around
 * them. export_notebook refuses a notebook whose lower bound is over the limit without reading a byte of its figures.
 *
 * @param sizeOf the current size of a figure file (the session's file index), null when it is gone
 * @param maxImageBytes figures larger than this are not embedded (--max-image-bytes)
 */
export declare function notebookBytesAtLeast(history: CellHistory, sizeOf: (path: string) => number | null, maxImageBytes: number): number;
/** Workspace paths of the images the history's cells showed (to read before building). */
export declare function figurePaths(history: CellHistory): string[];
