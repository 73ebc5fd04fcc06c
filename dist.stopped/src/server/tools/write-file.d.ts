/** write_file: Writes (or appends to) a file in a session's workspace, queued behind running code. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type ToolDeps } from './shared.js';
export declare function registerWriteFileTool(server: McpServer, deps: ToolDeps): RegisteredTool;
