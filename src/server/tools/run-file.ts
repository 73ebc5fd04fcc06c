/**
 * run_file: Runs a .py file of the workspace in the session's namespace (like %run -i), or the code cells of a .ipynb
 * in order (src/server/notebook-run.ts); same reply as execute_code.
 */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { sessionPath } from '../../sessions/host-paths.js';
import { timeoutFor } from '../../sessions/input-checks.js';
import { executionOutputSchema, runCellAndReply } from '../execution-reply.js';
import { runNotebook } from '../notebook-run.js';
import { CELL_APP_TOOL_META } from '../../view/mcp-apps.js';
import { toolReply, optionalArg, pathField, sessionIdField, timeoutField, type ToolDeps } from './shared.js';

export function registerRunFileTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  const { sessions, config } = deps;
  return server.registerTool(
    'run_file',
    {
      title: 'Run a Python file',
      description:
        "Runs a .py file from the session workspace in the session's namespace (like %run -i): its variables persist. Same reply as execute_code. " +
        'A .ipynb notebook runs its code cells in order, each as execute_code would, stopping at the first error unless continue_on_error; ' +
        "the reply has each cell's outcome in notebook.cells.",
      inputSchema: z.strictObject({
        session_id: sessionIdField,
        path: pathField,
        timeout_seconds: timeoutField(config),
        continue_on_error: optionalArg(z.boolean(), 'For a .ipynb: run the cells after one that failed too (default false: stop there)'),
      }),
      outputSchema: executionOutputSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      _meta: CELL_APP_TOOL_META,
    },
    toolReply(deps, async ({ session_id, path, timeout_seconds, continue_on_error }, extra) => {
      const rel = sessionPath(path);
      (await sessions.filesOf(session_id)).sizeOf(rel); // a clear FILE_NOT_FOUND before queueing
      const timeoutMs = timeoutFor(config, timeout_seconds);
      if (/\.ipynb$/i.test(rel)) return runNotebook(deps, session_id, rel, timeoutMs, continue_on_error ?? false, extra);
      return runCellAndReply(deps, session_id, { path: rel }, timeoutMs, extra);
    }),
  );
}
