import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded, ok, type ToolDeps } from './shared.js';

export function registerListSessionsTool(server: McpServer, deps: ToolDeps): void {
  server.registerTool(
    'list_sessions',
    {
      title: 'List sessions',
      description:
        'Lists the live sessions: id, creation and last-use times, expiry, whether one is running code, and how many cells it ran.',
      inputSchema: {},
      outputSchema: {
        sessions: z.array(
          z.object({
            session_id: z.string(),
            created_at: z.string(),
            last_used_at: z.string(),
            expires_at: z.string(),
            busy: z.boolean(),
            execution_count: z.number().int(),
          }),
        ),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(deps, async () => ok({ sessions: deps.sessions.list() })),
  );
}
