/** run_file: Runs a .py file of the workspace in the session's namespace (like %run -i); same reply as execute_code. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type ToolDeps } from './shared.js';
export declare function registerRunFileTool(server: McpServer, deps: ToolDeps): RegisteredTool;
