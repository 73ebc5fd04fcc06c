/** read_file: Reads a page of a session file (text or base64), from the session's copy of its files. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type ToolDeps } from './shared.js';
export declare function registerReadFileTool(server: McpServer, deps: ToolDeps): RegisteredTool;
