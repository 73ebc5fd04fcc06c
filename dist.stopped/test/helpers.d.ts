/** Test helpers: start the built server over real stdio and talk to it with the SDK's own Client. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
/** dist/src/cli.js, from dist/test/. */
export declare const CLI: string;
export interface Harness {
    client: Client;
    transport: StdioClientTransport;
    stderr: () => string;
    call: (name: string, args?: Record<string, unknown>) => Promise<CallToolResult>;
    /** Calls a tool and returns its structuredContent, failing on isError. */
    ok: <T = Record<string, any>>(name: string, args?: Record<string, unknown>) => Promise<T>;
    close: () => Promise<void>;
}
/** Starts `pyodide-mcp` with the given flags (default: no preload, modern runtime) and connects a client. */
export declare function startServer(flags?: string[], env?: Record<string, string>): Promise<Harness>;
export declare function textOf(result: CallToolResult): string;
/** Polls `check` until it returns true or `ms` pass; for states that change on a server-side timer. */
export declare function eventually(check: () => Promise<boolean>, ms: number, what: string): Promise<void>;
