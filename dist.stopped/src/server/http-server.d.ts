import type { SessionManager } from '../sessions/manager.js';
import { SessionScope } from '../sessions/scope.js';
import type { CreatedServer } from './server.js';
export interface HttpServeOptions {
    host: string;
    port: number;
    authToken: string | null;
    /** null: the default for the address (see allowedHostNames). */
    allowedHosts: string[] | null;
    /** Most MCP sessions open at once. */
    maxClients: number;
    /** Largest POST body, in bytes (the same bound as a stdio line). */
    maxBodyBytes: number;
    /** An MCP session with no request (and no open stream) for this long is closed, with its Python sessions. */
    idleMs: number;
    manager: SessionManager;
    /** Builds the MCP server of one client over its scope. */
    serverFor: (sessions: SessionScope) => CreatedServer;
    log: (message: string) => void;
}
export interface HttpServing {
    /** http://HOST:PORT/mcp */
    url: string;
    /**
     * Graceful stop: no new connections; running calls end with an error reply (their sessions are terminated) and
     * are given `graceMs` to reach their clients; then every transport and connection is closed.
     */
    close: (graceMs?: number) => Promise<void>;
}
export declare function serveHttp(options: HttpServeOptions): Promise<HttpServing>;
