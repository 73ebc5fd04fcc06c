/** download_file: Writes a session file to the host, within the operator's allow-list. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type ToolDeps } from './shared.js';
export declare function registerDownloadFileTool(server: McpServer, deps: ToolDeps): RegisteredTool;
