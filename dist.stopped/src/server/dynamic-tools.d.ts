/**
 * Functions of a session published as MCP tools (register_tool / unregister_tool). The input schema comes from the
 * function's signature and annotations, the description from its docstring; calling the tool calls the function in
 * its session exactly like call_function (queue, time limits, reply). A session's tools go when it ends or is reset;
 * every change reaches clients as notifications/tools/list_changed (the SDK sends it on register and remove).
 *
 * Security: the tool name, parameter names and annotations come from the session (untrusted): names are checked
 * against fixed patterns, and annotations only select among a few fixed schemas; nothing of them becomes code.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type Parameter } from '../contract.js';
import { type ToolDeps } from './tools/shared.js';
/** What a registered tool may be called. */
export declare const TOOL_NAME: RegExp;
/** Most tools registered at once, over all sessions: each one costs every client context on every tools/list. */
export declare const MAX_REGISTERED_TOOLS = 32;
/** What register_tool needs to know of the function, from inspect_variable. */
export interface FunctionFacts {
    kind: string;
    type: string;
    doc: string | null;
    signature: string | null;
    parameters: Parameter[] | null;
}
export declare class DynamicTools {
    private readonly server;
    private readonly deps;
    /** Names of the server's own tools (exposed or not): never shadowed. */
    private readonly builtinNames;
    private readonly registered;
    constructor(server: McpServer, deps: ToolDeps, 
    /** Names of the server's own tools (exposed or not): never shadowed. */
    builtinNames: ReadonlySet<string>);
    /** Publishes `fn` of session `sessionId` as tool `name`; replaces the session's own earlier tool of that name. */
    register(sessionId: string, fn: string, facts: FunctionFacts, name: string, description: string | undefined): {
        name: string;
        session_id: string;
        function: string;
        description: string;
        parameters: string[];
    };
    /** Removes a registered tool; built-in and unknown names are errors that say so. */
    unregister(name: string): void;
    /** The session's tools go with it (closed, expired, dead) or with its namespace (reset). */
    removeSession(sessionId: string): void;
    list(): {
        name: string;
        session_id: string;
        function: string;
    }[];
}
