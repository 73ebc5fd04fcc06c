/** call_function: calls a namespace function with JSON arguments; same reply, queue and limits as execute_code. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type ToolDeps } from './shared.js';
export declare function registerCallFunctionTool(server: McpServer, deps: ToolDeps): RegisteredTool;
/** A call the session may be sent: a checked name, identifier keywords, arguments no larger than --max-code-chars. */
export declare function checkedCall(name: string, args: unknown[], kwargs: Record<string, unknown>, maxChars: number): {
    name: string;
    args: unknown[];
    kwargs: Record<string, unknown>;
};
