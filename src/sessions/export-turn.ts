/** What an export (export_notebook) may do in its session's turn, and the server-wide bounds on exports and whole reads. */
import type { FilePage } from '../wire/contract.js';
import type { FileRef } from './file-index.js';
import type { CellHistory } from './history.js';
import type { Session } from './registry.js';

/**
 * Exports (export_notebook) running at once, server-wide. Each also runs in its session's turn (one per session).
 * Memory: an export holds its figures as base64 (a lower bound of the notebook's size, checked before any is read,
 * keeps them under --max-file-bytes), the notebook's JSON text (at most --max-file-bytes characters, else it is
 * refused before encoding; its history part is at most 6 × --max-history-bytes, JSON's worst escaping) and its UTF-8
 * bytes: about 3 × --max-file-bytes at its peak, so 2 slots bound exports to about 6 × --max-file-bytes (300 MB with
 * the default 50 MB) whatever the number of clients asking.
 */
export const EXPORT_SLOTS = 2;
/**
 * Whole-file reads (download_file) at once, server-wide: each holds up to --max-file-bytes, so without a bound N
 * calls in flight would hold N files.
 */
export const WHOLE_READ_SLOTS = 2;

type WriteFile = (path: string, data: Uint8Array, options: { append: boolean; overwrite: boolean }) => Promise<FileRef>;

/** What an export may do in its turn: the history holds still, and files are read and written without queueing again. */
export interface ExportTurn {
  history: CellHistory;
  /** The session's Python version. */
  python: string;
  /** A file's size from the server's index (no round trip), or null when it is not a file. */
  sizeOf(path: string): number | null;
  readFile(path: string, length: number): Promise<FilePage>;
  writeFile: WriteFile;
}

/** The turn of a session whose turn it is; reads are capped at `maxFileBytes`, writes go through `writeFile`. */
export function exportTurnOf(session: Session, maxFileBytes: number, writeFile: WriteFile): ExportTurn {
  return {
    history: session.history,
    python: session.runtime.python,
    sizeOf: (path) => {
      try {
        return session.files.sizeOf(path);
      } catch {
        return null;
      }
    },
    readFile: (path, length) => session.channel.request({ type: 'read_file', path, offset: 0, length: Math.min(length, maxFileBytes) }),
    writeFile,
  };
}
