/**
 * A session's history as the bytes of a .ipynb, in its export turn: sized before any figure is read, figures read
 * within --max-image-bytes, the text refused above --max-file-bytes. export_notebook writes these bytes into the
 * workspace; the browser view (src/view/) sends them as a download.
 */
import { PyodideMcpError } from '../errors.js';
import type { ExportTurn } from '../sessions/export-turn.js';
import type { Config } from './config.js';
import { buildNotebook, figurePaths, notebookBytesAtLeast, type FigureData } from './notebook.js';

export async function notebookBytes(turn: ExportTurn, sessionId: string, config: Config): Promise<Uint8Array> {
  const { history, python } = turn;
  const maxBytes = config.fileLimits.maxFileBytes;
  // Security: sized before anything large is pulled into the server; a notebook that cannot fit reads no figure.
  const atLeast = notebookBytesAtLeast(history, turn.sizeOf, config.maxImageBytes);
  if (atLeast > maxBytes) throw tooLarge(`at least ${atLeast}`, maxBytes);
  const figures: FigureData = new Map();
  for (const figure of figurePaths(history)) {
    const size = turn.sizeOf(figure);
    if (size === null) {
      figures.set(figure, { missing: 'no longer in the workspace' });
    } else if (size > config.maxImageBytes) {
      figures.set(figure, { missing: `${size} bytes, above --max-image-bytes` });
    } else {
      try {
        const { data } = await turn.readFile(figure, config.maxImageBytes);
        figures.set(figure, { base64: Buffer.from(data).toString('base64') });
      } catch (error) {
        figures.set(figure, { missing: `could not be read (${(error as Error).message.split('.')[0]})` });
      }
    }
  }
  const text = JSON.stringify(buildNotebook(history, figures, { sessionId, python }), null, 1) + '\n';
  figures.clear();
  // UTF-8 takes at least a byte per character: a text longer than the limit is refused before it is encoded.
  if (text.length > maxBytes) throw tooLarge(`at least ${text.length}`, maxBytes);
  const bytes = new TextEncoder().encode(text);
  if (bytes.byteLength > maxBytes) throw tooLarge(String(bytes.byteLength), maxBytes);
  return bytes;
}

/** The notebook does not fit in a workspace file: what the caller can do about it. */
function tooLarge(size: string, maxBytes: number): PyodideMcpError {
  return new PyodideMcpError(
    'QUOTA_EXCEEDED',
    `The notebook would be ${size} bytes, above the largest file a session may hold (--max-file-bytes ${maxBytes}). ` +
      'Delete figure files it need not embed (delete_file: a missing figure is noted, not embedded), start a fresh history with reset_session, ' +
      'or ask the operator to raise --max-file-bytes (or lower --max-image-bytes, --max-history-bytes).',
  );
}
