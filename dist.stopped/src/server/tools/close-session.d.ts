import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type ToolDeps } from './shared.js';
export declare function registerCloseSessionTool(server: McpServer, deps: ToolDeps): RegisteredTool;
