import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { toolReply, ok, sessionIdField, type ToolDeps } from './shared.js';

export function registerCloseSessionTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  return server.registerTool(
    'close_session',
    {
      title: 'Close a session',
      description:
        "Terminates a session's interpreter and frees its memory and files. Its variables and files are gone afterwards (with --state-dir, its saved state too; a session saved before a restart is deleted without being restored).",
      inputSchema: z.strictObject({ session_id: sessionIdField }),
      outputSchema: z.object({ session_id: z.string(), closed: z.boolean() }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    toolReply(deps, async ({ session_id }) => {
      await deps.sessions.close(session_id);
      return ok({ session_id, closed: true }, `Session ${session_id} closed.`);
    }),
  );
}
