/** upload_file: Copies a regular host file into a session, within the operator's allow-list. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { checkHostPath, readHostFile, sessionPath } from '../../sessions/host-paths.js';
import { fileRefSchema, toolReply, hostAccess, ok, optionalArg, sessionIdField, type ToolDeps } from './shared.js';

export function registerUploadFileTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  const { sessions, config } = deps;
  const { access, where } = hostAccess(config);
  return server.registerTool(
    'upload_file',
    {
      title: 'Copy a host file into a session',
      description: `Copies a regular file from the host into a session workspace. Reads from ${where}; credential files (.env, .ssh/, .aws/, tokens, keys…) and anything under /proc, /sys or /dev are always refused.`,
      inputSchema: z.strictObject({
        session_id: sessionIdField,
        host_path: z.string().max(4096).describe('Absolute host path, or relative to the server working directory'),
        destination_path: optionalArg(z.string().max(4096), 'Path in the workspace (default: the file name)'),
        overwrite: optionalArg(z.boolean(), 'Replace an existing file in the session'),
      }),
      outputSchema: fileRefSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    toolReply(deps, async ({ session_id, host_path, destination_path, overwrite }) => {
      const real = checkHostPath(host_path, access, 'read');
      const rel = sessionPath(destination_path ?? real.slice(real.lastIndexOf('/') + 1));
      const data = await readHostFile(real, config.fileLimits.maxFileBytes);
      const ref = await sessions.writeFile(session_id, rel, data, { append: false, overwrite: overwrite ?? false });
      return ok(ref, `Copied ${real} to ${ref.path} (${ref.size} bytes).`);
    }),
  );
}
