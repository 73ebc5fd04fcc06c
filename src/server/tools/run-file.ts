/** run_file: Runs a .py file of the workspace in the session's namespace (like %run -i); same reply as execute_code. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { sessionPath } from '../../sessions/host-paths.js';
import { timeoutFor } from '../../sessions/input-checks.js';
import { executionOutputShape, runCellAndReply } from '../execution-reply.js';
import { toolReply, pathField, sessionIdField, timeoutField, type ToolDeps } from './shared.js';

export function registerRunFileTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  const { sessions, config } = deps;
  return server.registerTool(
    'run_file',
    {
      title: 'Run a Python file',
      description:
        "Runs a .py file from the session workspace in the session's namespace (like %run -i): its variables persist. Same reply as execute_code.",
      inputSchema: z.strictObject({
        session_id: sessionIdField,
        path: pathField,
        timeout_seconds: timeoutField(config),
      }),
      outputSchema: executionOutputShape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    toolReply(deps, async ({ session_id, path, timeout_seconds }, extra) => {
      const rel = sessionPath(path);
      (await sessions.filesOf(session_id)).sizeOf(rel); // a clear FILE_NOT_FOUND before queueing
      return runCellAndReply(deps, session_id, { path: rel }, timeoutFor(config, timeout_seconds), extra);
    }),
  );
}
