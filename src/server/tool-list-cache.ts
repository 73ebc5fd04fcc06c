/**
 * tools/list answered from a cache. The SDK's McpServer converts every tool's zod schemas to JSON Schema on every
 * tools/list (measured ≈ 52 ms of the server's one thread for our 22 tools), so 64 of them in flight from one HTTP
 * client took another client's server_info from 3 ms to 1.2-2.3 s. The list changes only when the tool set does,
 * and every such change (register, remove, enable, disable, update: register_tool, unregister_tool, a session's
 * tools going away, --tools and --profile) goes through McpServer.sendToolListChanged, connected or not: that is
 * where the cache is dropped. The SDK's own handler still builds the list, so the answer is the SDK's, unchanged.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type ListToolsResult } from '@modelcontextprotocol/sdk/types.js';

type Handler = (request: unknown, extra: unknown) => Promise<ListToolsResult>;

/**
 * Replaces the tools/list handler of `server` (which must have one: a tool registered, or the tools capability
 * declared) by one that memoizes it until the next tool-list change.
 */
export function cacheToolList(server: McpServer): void {
  // The SDK keeps the handler it installed in a private map; there is no public getter. Checked here, at start,
  // so an SDK that moves it fails every test at once rather than serving stale lists.
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, Handler> })._requestHandlers;
  const original = handlers?.get('tools/list');
  if (!original) throw new Error("cacheToolList: the MCP SDK's tools/list handler was not found; see src/server/tool-list-cache.ts");
  let cached: Promise<ListToolsResult> | null = null;
  const notify = server.sendToolListChanged.bind(server);
  server.sendToolListChanged = () => {
    cached = null;
    notify();
  };
  server.server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
    // The SDK's handler builds the list synchronously when called, so the list cached is that of the tool set now.
    const building = (cached ??= original(request, extra));
    try {
      // A copy per reply: whatever the SDK does with a result stays out of the cache.
      return { ...(await building) };
    } catch (error) {
      if (cached === building) cached = null;
      throw error;
    }
  });
}
