/** install_packages: Loads offline packages into a session, or (--allow-network) pure-Python wheels the server fetches and verifies. */
import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type ToolDeps } from './shared.js';
export declare function registerInstallPackagesTool(server: McpServer, deps: ToolDeps): RegisteredTool;
