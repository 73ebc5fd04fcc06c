/** reset_session: a fresh namespace in the same session, as after a kernel restart. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type ToolDeps } from './shared.js';
export declare function registerResetSessionTool(server: McpServer, deps: ToolDeps): RegisteredTool;
