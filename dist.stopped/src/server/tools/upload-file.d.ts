/** upload_file: Copies a regular host file into a session, within the operator's allow-list. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type ToolDeps } from './shared.js';
export declare function registerUploadFileTool(server: McpServer, deps: ToolDeps): RegisteredTool;
