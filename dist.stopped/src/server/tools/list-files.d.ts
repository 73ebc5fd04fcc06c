/** list_files: Lists a session's workspace from the server's file index (answers while the session runs code). */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type ToolDeps } from './shared.js';
export declare function registerListFilesTool(server: McpServer, deps: ToolDeps): RegisteredTool;
