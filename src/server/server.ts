/**
 * createServer(): the MCP server with every tool registered, and a close() that stops its sessions.
 * Transport-agnostic: the CLI connects one to stdio, or one per client to Streamable HTTP (each over its own scope
 * of a shared SessionManager); the library's createMcpServer() and tests connect it to anything.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Config } from './config.js';
import type { Distribution } from '../python/distribution.js';
import { SessionManager } from '../sessions/manager.js';
import type { SessionAccess } from '../sessions/scope.js';
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
import { registerCallFunctionTool } from './tools/call-function.js';
import { registerExportNotebookTool } from './tools/export-notebook.js';
import { registerInspectVariableTool } from './tools/inspect-variable.js';
import { registerListVariablesTool } from './tools/list-variables.js';
import { registerRegisterToolTool, registerUnregisterToolTool } from './tools/register-tool.js';
import { registerRemoveVariablesTool } from './tools/remove-variables.js';
import { registerResetSessionTool } from './tools/reset-session.js';
import { DynamicTools } from './dynamic-tools.js';
import { cacheToolList } from './tool-list-cache.js';
import { applyToolProfile, recordTools } from './tool-profile.js';
import { registerWriteFileTool } from './tools/write-file.js';
import { registerSessionFileResources } from './resources.js';
import type { ToolDeps } from './tools/shared.js';

export interface CreatedServer {
  server: McpServer;
  /** Terminates the server's sessions (all of them, or its scope's) and closes the transport. */
  close: () => Promise<void>;
}

/** Where the server's sessions come from: a manager of its own (from a distribution), or sessions given to it. */
export type SessionSource = { distribution: Distribution } | { sessions: SessionAccess };

export function createServer(
  options: {
    config: Config;
    version: string;
    log: (message: string) => void;
  } & SessionSource,
): CreatedServer {
  const { config, version, log } = options;
  const server = new McpServer(
    { name: 'pyodide-mcp', version },
    {
      // listChanged: register_tool adds tools at run time, and a session's tools go when it ends.
      capabilities: { tools: { listChanged: true }, resources: { listChanged: false }, logging: {} },
      instructions:
        'Runs Python (Pyodide, WebAssembly) in sandboxed, stateful sessions with no network. ' +
        'Start with execute_code (omit session_id to get a new session), then pass the returned session_id to keep variables and files.',
    },
  );
  const sessions = 'sessions' in options ? options.sessions : new SessionManager(config, options.distribution, log);
  const deps: ToolDeps = { sessions, config, log };
  // Filled with every built-in tool's name once they are registered: register_tool never shadows one.
  const builtinNames = new Set<string>();
  const toolDeps = { ...deps, dynamicTools: new DynamicTools(server, deps, builtinNames) };
  const tools = recordTools(server, () => {
    for (const register of [
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
      registerListVariablesTool,
      registerInspectVariableTool,
      registerCallFunctionTool,
      registerRemoveVariablesTool,
      registerResetSessionTool,
      registerExportNotebookTool,
    ]) {
      register(server, deps);
    }
    registerRegisterToolTool(server, toolDeps);
    registerUnregisterToolTool(server, toolDeps);
    registerServerInfoTool(server, { ...deps, version });
  });
  for (const name of tools.keys()) builtinNames.add(name);
  if (!config.structuredContent) {
    // --no-structured-content: no output schema either, since the SDK (and clients) require structuredContent
    // from a tool that declares one.
    for (const tool of tools.values()) tool.outputSchema = undefined;
  }
  try {
    applyToolProfile(tools, config);
  } catch (error) {
    // A bad --tools: the warm pool has started booting; stop it before the CLI exits.
    void sessions.closeAll();
    throw error;
  }
  registerSessionFileResources(server, sessions, config.maxReplyBytes);
  // Last: the SDK's tools/list handler exists once a tool is registered, and a change made without the SDK's update()
  // (outputSchema above) does not drop the cache, so it must come before the first tools/list.
  cacheToolList(server);
  // The client is gone (its transport closed, an HTTP session ended): nobody can reach its sessions any more.
  server.server.onclose = () => void sessions.closeAll().catch((error: Error) => log(`error while closing sessions: ${error.message}`));
  return {
    server,
    close: async () => {
      await sessions.closeAll();
      await server.close();
    },
  };
}
