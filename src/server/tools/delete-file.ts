/** delete_file: Deletes a file or an empty directory from a session's workspace. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { PyodideMcpError } from '../../errors.js';
import { sessionPath } from '../../sessions/host-paths.js';
import { toolReply, ok, pathField, sessionIdField, type ToolDeps } from './shared.js';

export function registerDeleteFileTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  const { sessions } = deps;
  return server.registerTool(
    'delete_file',
    {
      title: 'Delete a session file',
      description: 'Deletes a file (or an empty directory) from a session workspace.',
      inputSchema: z.strictObject({ session_id: sessionIdField, path: pathField }),
      outputSchema: z.object({ session_id: z.string(), path: z.string(), deleted: z.boolean() }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    toolReply(deps, async ({ session_id, path }) => {
      const rel = sessionPath(path);
      if (rel === '') throw new PyodideMcpError('INVALID_INPUT', 'path names the workspace directory itself; it cannot be deleted.');
      await sessions.deleteFile(session_id, rel);
      return ok({ session_id, path: rel, deleted: true }, `Deleted ${rel}.`);
    }),
  );
}
