/**
 * tools/list answered from a cache. The SDK's McpServer converts every tool's zod schemas to JSON Schema on every
 * tools/list (measured ≈ 52 ms of the server's one thread for our 22 tools), so 64 of them in flight from one HTTP
 * client took another client's server_info from 3 ms to 1.2-2.3 s. The list changes only when the tool set does,
 * and every such change (register, remove, enable, disable, update: register_tool, unregister_tool, a session's
 * tools going away, --tools and --profile) goes through McpServer.sendToolListChanged, connected or not: that is
 * where the cache is dropped. The SDK's own handler still builds the list, so the answer is the SDK's, unchanged.
 */
import type { ListToolsResult, McpServer } from '@modelcontextprotocol/server';

type Handler = (request: unknown, extra: unknown) => Promise<ListToolsResult>;

/**
 * The memoized list. One per server by default; the servers built for one tenant's 2026-era requests (one server per
 * HTTP request, the same tools) share one, so the list is built once per change rather than once per request.
 */
export class ToolListCache {
  cached: Promise<ListToolsResult> | null = null;
}

/**
 * Replaces the tools/list handler of `server` (which must have one: a tool registered, or the tools capability
 * declared) by one that memoizes it, in `cache`, until the next tool-list change.
 */
export function cacheToolList(server: McpServer, cache: ToolListCache = new ToolListCache()): void {
  // The SDK keeps the handler it installed behind a protected accessor (`_getRequestHandler`, SDK 2.4); there is no
  // public getter. Checked here, at start, so an SDK that moves it fails every test at once rather than serving
  // stale lists.
  const lookup = (server.server as unknown as { _getRequestHandler?: (method: string) => Handler | undefined })._getRequestHandler;
  const original = lookup?.call(server.server, 'tools/list');
  if (!original) throw new Error("cacheToolList: the MCP SDK's tools/list handler was not found; see src/server/tool-list-cache.ts");
  const notify = server.sendToolListChanged.bind(server);
  server.sendToolListChanged = () => {
    cache.cached = null;
    notify();
  };
  server.server.setRequestHandler('tools/list', async (request, extra) => {
    // The SDK's handler builds the list synchronously when called, so the list cached is that of the tool set now.
    const building = (cache.cached ??= original(request, extra));
    try {
      // A copy per reply: whatever the SDK does with a result stays out of the cache.
      return { ...(await building) };
    } catch (error) {
      if (cache.cached === building) cache.cached = null;
      throw error;
    }
  });
}
