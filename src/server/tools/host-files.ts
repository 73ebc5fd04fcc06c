/** Copying files between the host and a session, within the operator's allow-list. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { checkHostPath, readHostFile, sessionPath, writeHostFile } from '../../sandbox/host-paths.js';
import { fileRefSchema, guarded, ok, sessionIdField, type ToolDeps } from './shared.js';

export function registerHostFileTools(server: McpServer, deps: ToolDeps): void {
  const { sessions, config } = deps;
  const access = { allowDirs: config.allowDirs, allowAll: config.allowAllDirs };
  const where = config.allowAllDirs
    ? 'any host directory (--allow-all-dirs)'
    : config.allowDirs.length > 0
      ? `allowed directories only (${config.allowDirs.join(', ')})`
      : 'no host directory: host file access is off until the server is started with --allow-dir <dir>';

  server.registerTool(
    'upload_file',
    {
      title: 'Copy a host file into a session',
      description: `Copies a regular file from the host into a session workspace. Reads from ${where}; credential files (.env, .ssh/, .aws/, tokens, keys…) and anything under /proc, /sys or /dev are always refused.`,
      inputSchema: {
        session_id: sessionIdField,
        host_path: z.string().max(4096).describe('Absolute host path, or relative to the server working directory'),
        destination_path: z.string().max(4096).optional().describe('Path in the workspace (default: the file name)'),
        overwrite: z.boolean().optional().describe('Replace an existing file in the session'),
      },
      outputSchema: fileRefSchema.shape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    guarded(deps.log, async ({ session_id, host_path, destination_path, overwrite }) => {
      const real = checkHostPath(host_path, access, 'read');
      const rel = sessionPath(destination_path ?? real.slice(real.lastIndexOf('/') + 1));
      const data = await readHostFile(real, config.fileLimits.maxFileBytes);
      const ref = await sessions.writeFile(session_id, rel, data, { append: false, overwrite: overwrite ?? false });
      return ok(ref, `Copied ${real} to ${ref.path} (${ref.size} bytes).`);
    }),
  );

  server.registerTool(
    'download_file',
    {
      title: 'Copy a session file to the host',
      description: `Writes a session file to the host as a regular file, into ${where}; never under /proc, /sys or /dev, never through a symlink. Never replaces an existing host file unless overwrite is true.`,
      inputSchema: {
        session_id: sessionIdField,
        path: z.string().max(4096).describe('Path in the session workspace'),
        host_path: z.string().max(4096).describe('Destination on the host (its directory must exist)'),
        overwrite: z.boolean().optional().describe('Replace an existing host file'),
      },
      outputSchema: { host_path: z.string(), size: z.number() },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    guarded(deps.log, async ({ session_id, path, host_path, overwrite }) => {
      const { data } = await sessions.readFile(session_id, sessionPath(path));
      const real = checkHostPath(host_path, access, 'write');
      await writeHostFile(real, data, overwrite ?? false);
      return ok({ host_path: real, size: data.byteLength }, `Wrote ${data.byteLength} bytes to ${real}.`);
    }),
  );
}
