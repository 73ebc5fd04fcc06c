/** remove_variables: deletes names from the session namespace (like `del`). */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type ToolDeps } from './shared.js';
export declare function registerRemoveVariablesTool(server: McpServer, deps: ToolDeps): RegisteredTool;
