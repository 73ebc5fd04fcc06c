/** download_file: Writes a session file to the host, within the operator's allow-list. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { checkHostPath, sessionPath, writeHostFile } from '../../sessions/host-paths.js';
import { toolReply, hostAccess, ok, optionalArg, sessionIdField, type ToolDeps } from './shared.js';

export function registerDownloadFileTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  const { sessions } = deps;
  const { access, where } = hostAccess(deps.config);
  return server.registerTool(
    'download_file',
    {
      title: 'Copy a session file to the host',
      description: `Writes a session file to the host as a regular file, into ${where}; never under /proc, /sys or /dev, never through a symlink. Never replaces an existing host file unless overwrite is true.`,
      inputSchema: z.strictObject({
        session_id: sessionIdField,
        path: z.string().max(4096).describe('Path in the session workspace'),
        host_path: z.string().max(4096).describe('Destination on the host (its directory must exist)'),
        overwrite: optionalArg(z.boolean(), 'Replace an existing host file'),
      }),
      outputSchema: z.object({ host_path: z.string(), size: z.number() }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    toolReply(deps, async ({ session_id, path, host_path, overwrite }) => {
      const { real, size } = await sessions.readWhole(session_id, sessionPath(path), async (data) => {
        const real = checkHostPath(host_path, access, 'write');
        await writeHostFile(real, data, overwrite ?? false);
        return { real, size: data.byteLength };
      });
      return ok({ host_path: real, size }, `Wrote ${size} bytes to ${real}.`);
    }),
  );
}
