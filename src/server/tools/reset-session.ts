/** reset_session: a fresh namespace in the same session, as after a kernel restart. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { countField, toolReply, ok, optionalArg, sessionIdField, type ToolDeps } from './shared.js';

export function registerResetSessionTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  return server.registerTool(
    'reset_session',
    {
      title: 'Reset a session',
      description:
        "Clears the session's namespace, like restarting a notebook kernel but keeping the same session_id: every variable, function " +
        'and import name goes, open figures close, the cell count and history start again. Workspace files are kept unless clear_files is true.',
      inputSchema: z.strictObject({
        session_id: sessionIdField,
        clear_files: optionalArg(z.boolean(), 'Also delete every file in the workspace (default false)'),
      }),
      outputSchema: z.object({
        session_id: z.string(),
        reset: z.literal(true),
        removed: countField('Names removed from the namespace'),
        files_deleted: countField('Files and directories deleted (clear_files)'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    toolReply(deps, async ({ session_id, clear_files }) => {
      const { removed, files_deleted } = await deps.sessions.reset(session_id, clear_files ?? false);
      return ok({ session_id, reset: true as const, removed, files_deleted });
    }),
  );
}
