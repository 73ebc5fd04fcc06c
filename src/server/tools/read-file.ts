/** read_file: Reads a page of a session file (text or base64), from the session's copy of its files. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { looksLikeText, mimeType, sessionPath, sessionUri } from '../../sessions/host-paths.js';
import { toolReply, ok, optionalArg, pathField, sessionIdField, type ToolDeps } from './shared.js';

export function registerReadFileTool(server: McpServer, deps: ToolDeps): RegisteredTool {
  const { sessions, config } = deps;
  return server.registerTool(
    'read_file',
    {
      title: 'Read a session file',
      description:
        'Reads a file from a session workspace. Text comes back as text, binary as base64 (auto-detected unless encoding is given). Large files are paged with offset/length (bytes); `truncated` says more remains.',
      inputSchema: z.strictObject({
        session_id: sessionIdField,
        path: pathField,
        encoding: optionalArg(z.enum(['text', 'base64']), 'Force text or base64 (default: detect)'),
        offset: optionalArg(z.number().int().min(0).max(config.fileLimits.maxFileBytes), 'First byte to read (default 0)'),
        length: optionalArg(z.number().int().min(1).max(config.maxReadBytes), `Bytes to read (default and maximum ${config.maxReadBytes})`),
      }),
      outputSchema: z.object({
        session_id: z.string(),
        path: z.string(),
        uri: z.string(),
        mime_type: z.string(),
        encoding: z.enum(['text', 'base64']),
        content: z.string(),
        size: z.number().describe('Size of the whole file in bytes'),
        offset: z.number(),
        length: z.number().describe('Bytes returned'),
        truncated: z.boolean().describe('True when bytes remain after this page'),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    toolReply(deps, async ({ session_id, path, encoding, offset, length }) => {
      const rel = sessionPath(path);
      // A page fits a reply twice (structured content and text) under --max-reply-bytes, base64 included.
      const count = Math.min(length ?? config.maxReadBytes, config.maxReadBytes, Math.floor(config.maxReplyBytes / 3));
      const { data, size } = await sessions.readFile(session_id, rel, offset ?? 0, count);
      const start = Math.min(offset ?? 0, size);
      const page = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      const chosen = encoding ?? (looksLikeText(page) ? 'text' : 'base64');
      const content = chosen === 'text' ? page.toString('utf8') : page.toString('base64');
      const truncated = start + page.byteLength < size;
      const reply = {
        session_id,
        path: rel,
        uri: sessionUri(session_id, rel),
        mime_type: mimeType(rel),
        encoding: chosen,
        content,
        size,
        offset: start,
        length: page.byteLength,
        truncated,
      };
      const note = truncated ? `\n[${size - start - page.byteLength} more bytes: read again with offset ${start + page.byteLength}]` : '';
      return ok(reply, chosen === 'text' ? content + note : `[${rel}: ${page.byteLength} bytes, base64]\n${content}${note}`);
    }),
  );
}
