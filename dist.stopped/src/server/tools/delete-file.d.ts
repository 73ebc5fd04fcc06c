/** delete_file: Deletes a file or an empty directory from a session's workspace. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type ToolDeps } from './shared.js';
export declare function registerDeleteFileTool(server: McpServer, deps: ToolDeps): RegisteredTool;
