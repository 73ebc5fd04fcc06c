import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type ToolDeps } from './shared.js';
export declare function registerServerInfoTool(server: McpServer, deps: ToolDeps & {
    version: string;
}): RegisteredTool;
