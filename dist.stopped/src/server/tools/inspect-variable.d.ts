/** inspect_variable: one object of the namespace in depth (resolved by name or dotted path, never evaluated). */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type ToolDeps } from './shared.js';
export declare function registerInspectVariableTool(server: McpServer, deps: ToolDeps): RegisteredTool;
