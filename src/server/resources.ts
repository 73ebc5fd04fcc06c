/** Session files as MCP resources: `session://{session_id}/{path}`, listed for live sessions. */
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { looksLikeText, mimeType, sessionPath } from '../sessions/host-paths.js';
import { PyodideMcpError } from '../errors.js';
import type { SessionAccess } from '../sessions/scope.js';

export function registerSessionFileResources(server: McpServer, sessions: SessionAccess, maxReplyBytes: number): void {
  server.registerResource(
    'session-file',
    new ResourceTemplate('session://{session_id}/{+path}', {
      list: async () => ({
        resources: sessions.allFiles().map((file) => ({ uri: file.uri, name: file.path, mimeType: file.mime_type, size: file.size })),
      }),
    }),
    { title: 'Session file', description: 'A file in a live session workspace (figures, data, results).' },
    async (uri, variables) => {
      try {
        const id = decodeURIComponent(String(variables.session_id));
        const path = sessionPath(String(variables.path).split('/').map(decodeURIComponent).join('/'));
        // A resource is read whole: one larger than a reply may be (base64 grows it by a third) is refused with
        // the way to page through it, never sent (a client drops a message above its own limit, and the connection).
        const size = (await sessions.filesOf(id)).sizeOf(path);
        if (size * 1.4 > maxReplyBytes) {
          throw new PyodideMcpError(
            'REPLY_TOO_LARGE',
            `${path} is ${size} bytes, too large to send whole (--max-reply-bytes ${maxReplyBytes}); read it in pages with the read_file tool (offset, length).`,
          );
        }
        const page = await sessions.readFile(id, path);
        const data = Buffer.from(page.data.buffer, page.data.byteOffset, page.data.byteLength);
        const mime = mimeType(path);
        return {
          contents: [
            looksLikeText(data) && !mime.startsWith('image/')
              ? { uri: uri.href, mimeType: mime, text: data.toString('utf8') }
              : { uri: uri.href, mimeType: mime, blob: data.toString('base64') },
          ],
        };
      } catch (error) {
        // Resource reads have no isError result: a protocol error that still says what is wrong.
        if (error instanceof PyodideMcpError) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${error.code}: ${error.message}`);
        throw error;
      }
    },
  );
}
