/** execute_code: runs a cell in a session (a new one when no session_id is given). */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type ToolDeps } from './shared.js';
export declare function registerExecuteCodeTool(server: McpServer, deps: ToolDeps): RegisteredTool;
