/** export_notebook: the session's cells as a Jupyter notebook file in its workspace. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { sessionPath } from '../../sessions/host-paths.js';
import { PyodideMcpError } from '../../errors.js';
import { buildNotebook, figurePaths, notebookBytesAtLeast, type FigureData } from '../notebook.js';
import { countField, fileRefSchema, toolReply, ok, optionalArg, pathField, sessionIdField, type ToolDeps } from './shared.js';

const DEFAULT_PATH = 'notebook.ipynb';

export function registerExportNotebookTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  const { sessions, config } = deps;
  return server.registerTool(
    'export_notebook',
    {
      title: 'Export as a notebook',
      description:
        "Writes the session's history as a Jupyter notebook (.ipynb, nbformat 4): every cell run, in order, with its output streams, " +
        'result, errors and figures. The file lands in the workspace (read it with read_file or as a resource, or download_file it).',
      inputSchema: z.strictObject({
        session_id: sessionIdField,
        path: optionalArg(pathField, `Where to write it in the workspace (default "${DEFAULT_PATH}")`),
        overwrite: optionalArg(z.boolean(), 'Replace an existing file (default false)'),
      }),
      outputSchema: z.object({
        session_id: z.string(),
        file: fileRefSchema,
        cells: countField('Code cells in the notebook'),
        dropped_cells: countField('Older cells left out because the history is bounded (--max-history-cells, --max-history-bytes)'),
        cleared_by_reset: countField('Cells run before the last reset_session, not included'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    toolReply(deps, async ({ session_id, path, overwrite }) => {
      const target = sessionPath(path ?? DEFAULT_PATH);
      const maxBytes = config.fileLimits.maxFileBytes;
      // One export per session (its turn) and few server-wide (the manager's slots bound the memory they take).
      const reply = await sessions.exportTurn(session_id, async (turn) => {
        const { history, python } = turn;
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
        const text = JSON.stringify(buildNotebook(history, figures, { sessionId: session_id, python }), null, 1) + '\n';
        figures.clear();
        // UTF-8 takes at least a byte per character: a text longer than the limit is refused before it is encoded.
        if (text.length > maxBytes) throw tooLarge(`at least ${text.length}`, maxBytes);
        const bytes = new TextEncoder().encode(text);
        if (bytes.byteLength > maxBytes) throw tooLarge(String(bytes.byteLength), maxBytes);
        return {
          session_id,
          file: await turn.writeFile(target, bytes, { append: false, overwrite: overwrite ?? false }),
          cells: history.all().length,
          dropped_cells: history.dropped,
          cleared_by_reset: history.clearedByReset,
        };
      });
      const { file } = reply;
      const summary =
        `Wrote ${file.path} (${file.size} bytes, ${reply.cells} cells` +
        (reply.dropped_cells > 0 ? `; ${reply.dropped_cells} older cells were dropped (--max-history-cells, --max-history-bytes)` : '') +
        `). Read it with read_file or as the resource ${file.uri}.`;
      const result: CallToolResult = ok(reply, summary);
      if (config.resourceLinks) {
        result.content.push({ type: 'resource_link', uri: file.uri, name: file.name, mimeType: file.mime_type });
      }
      return result;
    }),
  );
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
