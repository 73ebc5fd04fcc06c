/** What every tool module receives, and the helpers that shape replies. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../config.js';
import type { HostAccess } from '../../sandbox/host-paths.js';
import type { SessionAccess } from '../../sessions/scope.js';
export interface ToolDeps {
    /** The session manager, or one client's scope of it (Streamable HTTP). */
    sessions: SessionAccess;
    config: Config;
    log: (message: string) => void;
}
export { fileRefSchema } from '../../sessions/file-index.js';
/** Where host file tools may read and write, and how their descriptions say it. */
export declare function hostAccess(config: Config): {
    access: HostAccess;
    where: string;
};
export { countField, dottedNameField, optionalArg, orNull, pathField, sessionIdField, timeoutField } from './fields.js';
/**
 * A successful reply: structured content plus the same data as compact JSON text (the MCP spec's fallback for
 * clients that ignore structuredContent). Compact because some clients hand the model both.
 */
export declare function ok<T extends object>(structured: T, text?: string): CallToolResult;
/**
 * The one place where a failure becomes an MCP tool error (isError): the message says what was
 * wrong and what to do. Errors we did not anticipate are reported as internal, and logged.
 */
export declare function toToolError(error: unknown, log: (message: string) => void): CallToolResult;
/**
 * Wraps a handler so that every thrown error becomes a tool error reply, and no reply exceeds --max-reply-bytes
 * (execute_code and run_file fit themselves under it; for other tools a reply that large means the request was too
 * broad, and the error says how to narrow it).
 *
 * With --state-dir, a `session_id` argument naming a session saved before a restart restores it first (unless
 * `restore` is false), and the reply says so: a `restored` field in an execution reply, a line of text in every reply.
 */
export declare function guarded<A extends unknown[]>(deps: Pick<ToolDeps, 'log' | 'config'> & Partial<Pick<ToolDeps, 'sessions'>>, handler: (...args: A) => Promise<CallToolResult>, options?: {
    restore?: boolean;
}): (...args: A) => Promise<CallToolResult>;
