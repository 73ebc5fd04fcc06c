/** list_packages: Lists the packages a session has loaded, and those the server can load offline. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { toolReply, ok, optionalSessionIdField, orNull, type ToolDeps } from './shared.js';

export function registerListPackagesTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  const { sessions } = deps;
  return server.registerTool(
    'list_packages',
    {
      title: 'List Python packages',
      description:
        'Lists the packages loaded in a session (with versions) and every package available offline that install_packages can load. Without session_id, lists what the server offers.',
      inputSchema: z.strictObject({
        session_id: optionalSessionIdField('A session whose loaded packages to list; omit it or pass "" for what the server offers'),
      }),
      outputSchema: z.object({
        session_id: orNull(z.string(), 'The session whose loaded packages are listed, or null without one'),
        loaded: z.record(z.string(), z.string()).describe('Loaded packages and versions (empty without a session)'),
        available: z.array(z.string()).describe('Packages that can be loaded offline'),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    toolReply(deps, async ({ session_id }) => {
      if (session_id) {
        const listing = await sessions.listPackages(session_id);
        return ok({ session_id, ...listing });
      }
      return ok({ session_id: null, loaded: {}, available: sessions.facts.available });
    }),
  );
}
