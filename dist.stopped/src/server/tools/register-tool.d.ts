/** register_tool and unregister_tool: a session function published as a tool of this server, and removed again. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { DynamicTools } from '../dynamic-tools.js';
import { type ToolDeps } from './shared.js';
export declare function registerRegisterToolTool(server: McpServer, deps: ToolDeps & {
    dynamicTools: DynamicTools;
}): RegisteredTool;
export declare function registerUnregisterToolTool(server: McpServer, deps: ToolDeps & {
    dynamicTools: DynamicTools;
}): RegisteredTool;
