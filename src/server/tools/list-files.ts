/** list_files: Lists a session's workspace from the server's file index (answers while the session runs code). */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { sessionPath, sessionUri } from '../../sessions/host-paths.js';
import { toolReply, ok, optionalArg, pathField, sessionIdField, type ToolDeps } from './shared.js';

export function registerListFilesTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  const { sessions } = deps;
  return server.registerTool(
    'list_files',
    {
      title: 'List session files',
      description: "Lists files and directories in a session's workspace (answers at once, even while the session runs code).",
      inputSchema: z.strictObject({
        session_id: sessionIdField,
        path: optionalArg(pathField, 'Directory to list (default: the workspace)'),
        recursive: optionalArg(z.boolean(), 'Include subdirectories (default true)'),
      }),
      outputSchema: z.object({
        session_id: z.string(),
        entries: z.array(
          z.object({
            name: z.string(),
            path: z.string(),
            type: z.enum(['file', 'directory']),
            size: z.number(),
            modified: z.string(),
            uri: z.string(),
          }),
        ),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    toolReply(deps, async ({ session_id, path, recursive }) => {
      const entries = (await sessions.filesOf(session_id))
        .list(sessionPath(path ?? ''), recursive ?? true)
        .map((entry) => ({ ...entry, uri: sessionUri(session_id, entry.path) }));
      const text =
        entries.length === 0
          ? 'The workspace is empty.'
          : entries.map((e) => `${e.type === 'directory' ? 'd' : '-'} ${String(e.size).padStart(10)}  ${e.path}`).join('\n');
      return ok({ session_id, entries }, text);
    }),
  );
}
