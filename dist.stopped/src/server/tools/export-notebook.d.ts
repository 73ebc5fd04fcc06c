/** export_notebook: the session's cells as a Jupyter notebook file in its workspace. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type ToolDeps } from './shared.js';
export declare function registerExportNotebookTool(server: McpServer, deps: ToolDeps): RegisteredTool;
