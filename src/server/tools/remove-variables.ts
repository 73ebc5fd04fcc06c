/** remove_variables: deletes names from the session namespace (like `del`). */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { checkedName } from '../namespace-reply.js';
import { toolReply, ok, sessionIdField, type ToolDeps } from './shared.js';

export function registerRemoveVariablesTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  return server.registerTool(
    'remove_variables',
    {
      title: 'Remove variables',
      description: 'Deletes names from the session namespace (like `del a, b`), e.g. to free memory held by a large DataFrame.',
      inputSchema: z.strictObject({
        session_id: sessionIdField,
        names: z.array(z.string().max(200)).min(1).max(1000).describe('Top-level names to delete'),
      }),
      outputSchema: z.object({
        session_id: z.string(),
        removed: z.array(z.string()),
        not_found: z.array(z.string()).describe('Names that were not defined'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    toolReply(deps, async ({ session_id, names }, extra) => {
      const checked = [...new Set(names)].map((name) => checkedName(name, 'name', false));
      const { removed, not_found } = await deps.sessions.namespace(
        session_id,
        { type: 'remove_variables', names: checked },
        extra.mcpReq.signal,
      );
      // Echo only names the caller sent (the session's answer is not trusted to be a subset).
      const sent = new Set(checked);
      return ok({ session_id, removed: removed.filter((n) => sent.has(n)), not_found: not_found.filter((n) => sent.has(n)) });
    }),
  );
}
