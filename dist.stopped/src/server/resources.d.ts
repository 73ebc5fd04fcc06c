/** Session files as MCP resources: `session://{session_id}/{path}`, listed for live sessions. */
import { type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SessionAccess } from '../sessions/scope.js';
export declare function registerSessionFileResources(server: McpServer, sessions: SessionAccess, maxReplyBytes: number): void;
