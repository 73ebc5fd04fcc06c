/** export_notebook: the session's cells as a Jupyter notebook file in its workspace. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { sessionPath } from '../../sandbox/host-paths.js';
import { buildNotebook, figurePaths, type FigureData } from '../notebook.js';
import { countField, fileRefSchema, guarded, ok, optionalArg, pathField, sessionIdField, type ToolDeps } from './shared.js';

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
      outputSchema: {
        session_id: z.string(),
        file: fileRefSchema,
        cells: countField('Code cells in the notebook'),
        dropped_cells: countField('Older cells left out because the history is bounded (--max-history-cells)'),
        cleared_by_reset: countField('Cells run before the last reset_session, not included'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    guarded(deps, async ({ session_id, path, overwrite }) => {
      const target = sessionPath(path ?? DEFAULT_PATH);
      const { history, python } = sessions.historyOf(session_id);
      const figures: FigureData = new Map();
      for (const figure of figurePaths(history)) {
        try {
          const { data, size } = await sessions.readFile(session_id, figure, 0, config.maxImageBytes);
          figures.set(
            figure,
            size > config.maxImageBytes
              ? { missing: `${size} bytes, above --max-image-bytes` }
              : { base64: Buffer.from(data).toString('base64') },
          );
        } catch (error) {
          figures.set(figure, { missing: `no longer in the workspace (${(error as Error).message.split('.')[0]})` });
        }
      }
      const notebook = buildNotebook(history, figures, { sessionId: session_id, python });
      const bytes = new TextEncoder().encode(JSON.stringify(notebook, null, 1) + '\n');
      const file = await sessions.writeFile(session_id, target, bytes, { append: false, overwrite: overwrite ?? false });
      const reply = {
        session_id,
        file,
        cells: history.all().length,
        dropped_cells: history.dropped,
        cleared_by_reset: history.clearedByReset,
      };
      const text =
        `Wrote ${file.path} (${file.size} bytes, ${reply.cells} cells` +
        (reply.dropped_cells > 0 ? `; ${reply.dropped_cells} older cells were dropped (--max-history-cells)` : '') +
        `). Read it with read_file or as the resource ${file.uri}.`;
      const result: CallToolResult = ok(reply, text);
      if (config.resourceLinks) {
        result.content.push({ type: 'resource_link', uri: file.uri, name: file.name, mimeType: file.mime_type });
      }
      return result;
    }),
  );
}
