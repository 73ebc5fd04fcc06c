/** export_notebook: the session's cells as a Jupyter notebook file in its workspace. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { sessionPath } from '../../sessions/host-paths.js';
import { notebookBytes } from '../notebook-export.js';
import { SESSION_APP_TOOL_META } from '../../view/mcp-apps.js';
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
      // MCP Apps hosts show the notebook it wrote, inline (src/view/mcp-apps.ts).
      _meta: SESSION_APP_TOOL_META,
    },
    toolReply(deps, async ({ session_id, path, overwrite }) => {
      const target = sessionPath(path ?? DEFAULT_PATH);
      // One export per session (its turn) and few server-wide (the manager's slots bound the memory they take).
      const reply = await sessions.exportTurn(session_id, async (turn) => {
        const { history } = turn;
        const bytes = await notebookBytes(turn, session_id, config);
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
