/** Tools on a session's workspace files: list, read, write (and append), delete, run. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { PyodideMcpError } from '../../errors.js';
import { looksLikeText, mimeType, sessionPath, sessionUri } from '../../sandbox/host-paths.js';
import { executionOutputShape, runWithProgress, timeoutFor } from '../execution-reply.js';
import { fileRefSchema, guarded, ok, sessionIdField, type ToolDeps } from './shared.js';

const pathField = z.string().max(4096).describe('Path in the session workspace, relative (e.g. "data/input.csv") or under /workspace');

export function registerFileTools(server: McpServer, deps: ToolDeps): void {
  const { sessions, config } = deps;

  server.registerTool(
    'list_files',
    {
      title: 'List session files',
      description: "Lists files and directories in a session's workspace (answers at once, even while the session runs code).",
      inputSchema: {
        session_id: sessionIdField,
        path: pathField.optional().describe('Directory to list (default: the workspace)'),
        recursive: z.boolean().optional().describe('Include subdirectories (default true)'),
      },
      outputSchema: {
        session_id: z.string(),
        entries: z.array(
          z.object({ name: z.string(), path: z.string(), type: z.enum(['file', 'directory']), size: z.number(), modified: z.string(), uri: z.string() }),
        ),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(deps.log, async ({ session_id, path, recursive }) => {
      const entries = sessions
        .filesOf(session_id)
        .list(sessionPath(path ?? ''), recursive ?? true)
        .map((entry) => ({ ...entry, uri: sessionUri(session_id, entry.path) }));
      const text = entries.length === 0 ? 'The workspace is empty.' : entries.map((e) => `${e.type === 'directory' ? 'd' : '-'} ${String(e.size).padStart(10)}  ${e.path}`).join('\n');
      return ok({ session_id, entries }, text);
    }),
  );

  server.registerTool(
    'read_file',
    {
      title: 'Read a session file',
      description:
        'Reads a file from a session workspace. Text comes back as text, binary as base64 (auto-detected unless encoding is given). Large files are paged with offset/length (bytes); `truncated` says more remains.',
      inputSchema: {
        session_id: sessionIdField,
        path: pathField,
        encoding: z.enum(['text', 'base64']).optional().describe('Force text or base64 (default: detect)'),
        offset: z.number().int().min(0).optional().describe('First byte to read (default 0)'),
        length: z.number().int().min(1).optional().describe(`Bytes to read (default and maximum ${config.maxReadBytes})`),
      },
      outputSchema: {
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
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    guarded(deps.log, async ({ session_id, path, encoding, offset, length }) => {
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

  server.registerTool(
    'write_file',
    {
      title: 'Write a session file',
      description:
        'Writes a file into a session workspace (parent directories are created). Refuses to replace an existing file unless overwrite is true; append adds to the end, so a long script can be written in several calls and then run with run_file.',
      inputSchema: {
        session_id: sessionIdField,
        path: pathField,
        content: z.string().describe('File content: text, or base64 when encoding is "base64"'),
        encoding: z.enum(['text', 'base64']).optional().describe('How content is encoded (default text, written as UTF-8)'),
        append: z.boolean().optional().describe('Add to the end of the file (creating it if needed)'),
        overwrite: z.boolean().optional().describe('Replace the file if it exists'),
      },
      outputSchema: fileRefSchema.shape,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    guarded(deps.log, async ({ session_id, path, content, encoding, append, overwrite }) => {
      const rel = sessionPath(path);
      if (rel === '') throw new PyodideMcpError('INVALID_INPUT', 'path names the workspace directory itself; give a file name.');
      if (encoding === 'base64' && !/^[A-Za-z0-9+/]*={0,2}$/.test(content.replace(/\s+/g, ''))) {
        throw new PyodideMcpError('INVALID_INPUT', 'content is not valid base64; nothing was written.');
      }
      const data = encoding === 'base64' ? Buffer.from(content, 'base64') : Buffer.from(content, 'utf8');
      const ref = await sessions.writeFile(session_id, rel, new Uint8Array(data), { append: append ?? false, overwrite: overwrite ?? false });
      return ok(ref, `${append ? 'Appended to' : 'Wrote'} ${ref.path} (${ref.size} bytes now).`);
    }),
  );

  server.registerTool(
    'delete_file',
    {
      title: 'Delete a session file',
      description: 'Deletes a file (or an empty directory) from a session workspace.',
      inputSchema: { session_id: sessionIdField, path: pathField },
      outputSchema: { session_id: z.string(), path: z.string(), deleted: z.boolean() },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    guarded(deps.log, async ({ session_id, path }) => {
      const rel = sessionPath(path);
      if (rel === '') throw new PyodideMcpError('INVALID_INPUT', 'path names the workspace directory itself; it cannot be deleted.');
      await sessions.deleteFile(session_id, rel);
      return ok({ session_id, path: rel, deleted: true }, `Deleted ${rel}.`);
    }),
  );

  server.registerTool(
    'run_file',
    {
      title: 'Run a Python file',
      description: "Runs a .py file from the session workspace in the session's namespace (like %run -i): its variables persist. Same reply as execute_code.",
      inputSchema: {
        session_id: sessionIdField,
        path: pathField,
        timeout_seconds: z.number().positive().optional().describe(`Time limit (default ${config.defaultTimeoutMs / 1000}, at most ${config.maxTimeoutMs / 1000})`),
      },
      outputSchema: executionOutputShape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    guarded(deps.log, async ({ session_id, path, timeout_seconds }, extra) => {
      const rel = sessionPath(path);
      sessions.filesOf(session_id).sizeOf(rel); // a clear FILE_NOT_FOUND before queueing
      return runWithProgress(deps, session_id, { path: rel }, timeoutFor(config, timeout_seconds), extra);
    }),
  );
}
