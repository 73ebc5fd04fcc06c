/** write_file: Writes (or appends to) a file in a session's workspace, queued behind running code. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { PyodideMcpError } from '../../errors.js';
import { sessionPath } from '../../sessions/host-paths.js';
import { fileRefSchema, toolReply, ok, optionalArg, pathField, sessionIdField, type ToolDeps } from './shared.js';

export function registerWriteFileTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  const { sessions } = deps;
  return server.registerTool(
    'write_file',
    {
      title: 'Write a session file',
      description:
        'Writes a file into a session workspace (parent directories are created). Refuses to replace an existing file unless overwrite is true; append adds to the end, so a long script can be written in several calls and then run with run_file.',
      inputSchema: z.strictObject({
        session_id: sessionIdField,
        path: pathField,
        content: z.string().describe('File content: text, or base64 when encoding is "base64"'),
        encoding: optionalArg(z.enum(['text', 'base64']), 'How content is encoded (default text, written as UTF-8)'),
        append: optionalArg(z.boolean(), 'Add to the end of the file (creating it if needed)'),
        overwrite: optionalArg(z.boolean(), 'Replace the file if it exists'),
      }),
      outputSchema: fileRefSchema,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    toolReply(deps, async ({ session_id, path, content, encoding, append, overwrite }) => {
      const rel = sessionPath(path);
      if (rel === '') throw new PyodideMcpError('INVALID_INPUT', 'path names the workspace directory itself; give a file name.');
      if (encoding === 'base64' && !/^[A-Za-z0-9+/]*={0,2}$/.test(content.replace(/\s+/g, ''))) {
        throw new PyodideMcpError('INVALID_INPUT', 'content is not valid base64; nothing was written.');
      }
      const data = encoding === 'base64' ? Buffer.from(content, 'base64') : Buffer.from(content, 'utf8');
      const ref = await sessions.writeFile(session_id, rel, new Uint8Array(data), {
        append: append ?? false,
        overwrite: overwrite ?? false,
      });
      return ok(ref, `${append ? 'Appended to' : 'Wrote'} ${ref.path} (${ref.size} bytes now).`);
    }),
  );
}
