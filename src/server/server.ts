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
import { registerDeleteFileTool } from './tools/delete-file.js';
import { registerDownloadFileTool } from './tools/download-file.js';
import { registerExecuteCodeTool } from './tools/execute-code.js';
import { registerInstallPackagesTool } from './tools/install-packages.js';
import { registerListFilesTool } from './tools/list-files.js';
import { registerListPackagesTool } from './tools/list-packages.js';
import { registerListSessionsTool } from './tools/list-sessions.js';
import { registerReadFileTool } from './tools/read-file.js';
import { registerRunFileTool } from './tools/run-file.js';
import { registerServerInfoTool } from './tools/server-info.js';
import { registerUploadFileTool } from './tools/upload-file.js';
import { registerWriteFileTool } from './tools/write-file.js';
import { registerSessionFileResources } from './resources.js';
import type { ToolDeps } from './tools/shared.js';

export interface CreatedServer {
  server: McpServer;
  /** Terminates every session worker and closes the transport. */
  close: () => Promise<void>;
}

export function createServer(options: {
  config: Config;
  distribution: Distribution;
  version: string;
  log: (message: string) => void;
}): CreatedServer {
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
  const tools = [
    ...[
      registerCreateSessionTool,
      registerExecuteCodeTool,
      registerListSessionsTool,
      registerCloseSessionTool,
      registerListPackagesTool,
      registerInstallPackagesTool,
      registerListFilesTool,
      registerReadFileTool,
      registerWriteFileTool,
      registerDeleteFileTool,
      registerRunFileTool,
      registerUploadFileTool,
      registerDownloadFileTool,
    ].map((register) => register(server, deps)),
    registerServerInfoTool(server, { ...deps, version }),
  ];
  if (!config.structuredContent) {
    // --no-structured-content: no output schema either, since the SDK (and clients) require structuredContent
    // from a tool that declares one.
    for (const tool of tools) tool.outputSchema = undefined;
  }
  registerSessionFileResources(server, sessions, config.maxReplyBytes);
  return {
    server,
    close: async () => {
      await sessions.closeAll();
      await server.close();
    },
  };
}
