/**
 * createServer(): the MCP server with every tool registered, and a close() that stops all sessions.
 * Transport-agnostic: the CLI connects it to stdio; tests may connect it to anything.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Config } from './config.js';
import type { Distribution } from '../python/distribution.js';
import { SessionManager } from '../sessions/manager.js';
import { registerCloseSessionTool } from './tools/close-session.js';
import { registerCreateSessionTool } from './tools/create-session.js';
import { registerExecuteCodeTool } from './tools/execute-code.js';
import { registerListSessionsTool } from './tools/list-sessions.js';
import { registerPackageTools } from './tools/packages.js';
import { registerFileTools } from './tools/files.js';
import { registerHostFileTools } from './tools/host-files.js';
import { registerSessionFileResources } from './resources.js';
import { registerServerInfoTool } from './tools/server-info.js';
import type { ToolDeps } from './tools/shared.js';

export interface CreatedServer {
  server: McpServer;
  sessions: SessionManager;
  /** Terminates every session worker and closes the transport. */
  close: () => Promise<void>;
}

export function createServer(options: { config: Config; distribution: Distribution; version: string; log: (message: string) => void }): CreatedServer {
  const { config, distribution, version, log } = options;
  const server = new McpServer(
    { name: 'pyodide-mcp', version },
    {
      capabilities: { tools: {}, resources: { listChanged: false }, logging: {} },
      instructions:
        'Runs Python (Pyodide, WebAssembly) in sandboxed, stateful sessions with no network. ' +
        'Start with execute_code (omit session_id to get a new session), then pass the returned session_id to keep variables and files.',
    },
  );
  const sessions = new SessionManager(config, distribution, log);
  const deps: ToolDeps = { sessions, config, log };
  registerCreateSessionTool(server, deps);
  registerExecuteCodeTool(server, deps);
  registerListSessionsTool(server, deps);
  registerCloseSessionTool(server, deps);
  registerPackageTools(server, deps);
  registerServerInfoTool(server, { ...deps, version });
  registerFileTools(server, deps);
  registerHostFileTools(server, deps);
  registerSessionFileResources(server, sessions);
  return {
    server,
    sessions,
    close: async () => {
      await sessions.closeAll();
      await server.close();
    },
  };
}
