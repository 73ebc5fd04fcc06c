import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { countField, toolReply, ok, type ToolDeps } from './shared.js';

export function registerListSessionsTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  return server.registerTool(
    'list_sessions',
    {
      title: 'List sessions',
      description:
        'Lists the live sessions: id, creation and last-use times, expiry, whether one is running code, and how many cells it ran. ' +
        'With --state-dir, also the sessions saved before a server restart (restorable: true): any call with their session_id restores them.',
      inputSchema: z.strictObject({}),
      outputSchema: z.object({
        sessions: z.array(
          z.object({
            session_id: z.string(),
            created_at: z.string(),
            last_used_at: z.string(),
            expires_at: z.string(),
            busy: z.boolean(),
            execution_count: countField('Cells run in the session (restorable: cells that a restore replays)'),
            restorable: z.boolean().describe('Saved before a server restart and not running; a call with its session_id restores it'),
          }),
        ),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    toolReply(deps, async () => ok({ sessions: [...deps.sessions.list(), ...(await deps.sessions.listRestorable())] })),
  );
}
