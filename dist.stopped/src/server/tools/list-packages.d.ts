/** list_packages: Lists the packages a session has loaded, and those the server can load offline. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type ToolDeps } from './shared.js';
export declare function registerListPackagesTool(server: McpServer, deps: ToolDeps): RegisteredTool;
