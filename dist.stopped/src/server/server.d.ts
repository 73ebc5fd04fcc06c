/**
 * createServer(): the MCP server with every tool registered, and a close() that stops its sessions.
 * Transport-agnostic: the CLI connects one to stdio, or one per client to Streamable HTTP (each over its own scope
 * of a shared SessionManager); the library's createMcpServer() and tests connect it to anything.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Config } from './config.js';
import type { Distribution } from '../python/distribution.js';
import type { SessionAccess } from '../sessions/scope.js';
export interface CreatedServer {
    server: McpServer;
    /** Terminates the server's sessions (all of them, or its scope's) and closes the transport. */
    close: () => Promise<void>;
}
/** Where the server's sessions come from: a manager of its own (from a distribution), or sessions given to it. */
export type SessionSource = {
    distribution: Distribution;
} | {
    sessions: SessionAccess;
};
export declare function createServer(options: {
    config: Config;
    version: string;
    log: (message: string) => void;
} & SessionSource): CreatedServer;
