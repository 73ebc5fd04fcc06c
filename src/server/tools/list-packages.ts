/** list_packages: Lists the packages a session has loaded, and those the server can load offline. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { guarded, ok, sessionIdField, type ToolDeps } from './shared.js';

export function registerListPackagesTool(server: McpServer, deps: ToolDeps): void {
  const { sessions } = deps;
  server.registerTool(
    'list_packages',
    {
      title: 'List Python packages',
      description:
        'Lists the packages loaded in a session (with versions) and every package available offline that install_packages can load. Without session_id, lists what the server offers.',
      inputSchema: { session_id: sessionIdField.optional() },
      outputSchema: {
        session_id: z.string().nullable(),
        loaded: z.record(z.string(), z.string()).describe('Loaded packages and versions (empty without a session)'),
        available: z.array(z.string()).describe('Packages that can be loaded offline'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(deps, async ({ session_id }) => {
      if (session_id) {
        const listing = await sessions.listPackages(session_id);
        return ok({ session_id, ...listing });
      }
      const info = await sessions.runtimeInfo();
      return ok({ session_id: null, loaded: {}, available: info?.available ?? [] });
    }),
  );
}
