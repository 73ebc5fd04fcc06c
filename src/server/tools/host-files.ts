/** Copying files between the host and a session, within the operator's allow-list. */
import { readFile, stat, writeFile } from 'node:fs/promises';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { PyodideMcpError } from '../../errors.js';
import { checkHostPath, sessionPath } from '../../sandbox/host-paths.js';
import { fileRefSchema, guarded, ok, sessionIdField, type ToolDeps } from './shared.js';

export function registerHostFileTools(server: McpServer, deps: ToolDeps): void {
  const { sessions, config } = deps;
  const access = { allowDirs: config.allowDirs, allowAll: config.allowAllDirs };

  server.registerTool(
    'upload_file',
    {
      title: 'Copy a host file into a session',
      description: `Copies a file from the host into a session workspace. Only from allowed directories (${config.allowAllDirs ? 'any directory' : config.allowDirs.join(', ')}); credential files (.env, .ssh/, .aws/, tokens, keys…) are always refused.`,
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
      const info = await stat(real);
      if (!info.isFile()) throw new PyodideMcpError('NOT_A_FILE', `Host path ${JSON.stringify(host_path)} is not a regular file.`);
      if (info.size > config.fileLimits.maxFileBytes) {
        throw new PyodideMcpError('QUOTA_EXCEEDED', `Host file is ${info.size} bytes, above the per-file limit of ${config.fileLimits.maxFileBytes} (--max-file-bytes). Nothing was copied.`);
      }
      const rel = sessionPath(destination_path ?? real.slice(real.lastIndexOf('/') + 1));
      const ref = await sessions.writeFile(session_id, rel, new Uint8Array(await readFile(real)), { append: false, overwrite: overwrite ?? false });
      return ok(ref, `Copied ${real} to ${ref.path} (${ref.size} bytes).`);
    }),
  );

  server.registerTool(
    'download_file',
    {
      title: 'Copy a session file to the host',
      description: `Writes a session file to the host, into an allowed directory only (${config.allowAllDirs ? 'any directory' : config.allowDirs.join(', ')}). Never replaces an existing host file unless overwrite is true.`,
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
      try {
        // 'wx' refuses to follow or replace anything already there, including a symlink planted after the check.
        await writeFile(real, data, { flag: overwrite ? 'w' : 'wx' });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
          throw new PyodideMcpError('FILE_EXISTS', `Host file ${real} already exists; pass overwrite: true to replace it.`);
        }
        throw error;
      }
      return ok({ host_path: real, size: data.byteLength }, `Wrote ${data.byteLength} bytes to ${real}.`);
    }),
  );
}
