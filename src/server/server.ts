/**
 * createServer(): the MCP server with every tool registered, and a close() that stops its sessions.
 * Transport-agnostic: the CLI connects one to stdio, or one per client to Streamable HTTP (each over its own scope
 * of a shared SessionManager); the library's createMcpServer() and tests connect it to anything.
 */
import { McpServer } from '@modelcontextprotocol/server';
import type { Config } from './config.js';
import type { Distribution } from '../python/distribution.js';
import { SessionManager } from '../sessions/manager.js';
import type { SessionAccess } from '../sessions/scope.js';
import { DynamicTools } from './dynamic-tools.js';
import { cacheToolList, ToolListCache } from './tool-list-cache.js';
import { applyToolProfile } from './tool-profile.js';
import { TOOL_NAMES, TOOLS, type ToolEntry } from './tools/index.js';
import { registerSessionFileResources } from './resources.js';
import { MCP_APPS_CAPABILITY, registerMcpApps } from '../view/mcp-apps.js';
import type { ToolDeps } from './tools/shared.js';

export interface CreatedServer {
  server: McpServer;
  /** Terminates the server's sessions (all of them, or its scope's) and closes the transport. */
  close: () => Promise<void>;
}

/** The registered tools and the tools/list cache of a tenant, shared by the servers built for its requests. */
export interface TenantShared {
  dynamicTools: DynamicTools;
  toolList: ToolListCache;
}

/** A new tenant's shared state: its registered tools (changes told through `onChange`) and its tools/list cache. */
export function tenantShared(deps: ToolDeps, onChange: () => void): TenantShared {
  return { dynamicTools: new DynamicTools(deps, new Set(TOOL_NAMES), onChange), toolList: new ToolListCache() };
}

/** Where the server's sessions come from: a manager of its own (from a distribution), or sessions given to it. */
export type SessionSource = { distribution: Distribution } | { sessions: SessionAccess };

export function createServer(
  options: {
    config: Config;
    version: string;
    log: (message: string) => void;
    /**
     * Whether the server's sessions end when its transport closes (default true: an HTTP client's scope, the library's
     * server). False where the transport is not the sessions' owner: serveStdio may build a server for a
     * `server/discover` probe and discard it, while the connection and its sessions go on.
     */
    closeSessionsOnDisconnect?: boolean;
    /** The protocol era the server will serve, when the SDK's entry says (serveStdio, createMcpHandler). */
    era?: 'legacy' | 'modern';
    /** What the servers of one tenant share (Streamable HTTP's 2026-era requests, one server per request). */
    shared?: TenantShared;
  } & SessionSource,
): CreatedServer {
  const { config, version, log } = options;
  const server = new McpServer(
    { name: 'pyodide-mcp', version },
    {
      // listChanged: register_tool adds tools at run time, and a session's tools go when it ends.
      // logging: only for 2025-era clients, which may send logging/setLevel (it changes nothing: the server sends no log
      // messages); 2026-07-28 deprecates logging to the client and replaces setLevel by a per-request field.
      capabilities: {
        tools: { listChanged: true },
        resources: { listChanged: false },
        // MCP Apps (src/view/mcp-apps.ts): declared, as the extension's servers do.
        extensions: MCP_APPS_CAPABILITY,
        ...(options.era === 'modern' ? {} : { logging: {} }),
      },
      instructions:
        'Runs Python (Pyodide, WebAssembly) in sandboxed, stateful sessions with no network. ' +
        'Start with execute_code (omit session_id to get a new session), then pass the returned session_id to keep variables and files.',
    },
  );
  const sessions = 'sessions' in options ? options.sessions : new SessionManager(config, options.distribution, log);
  const deps: ToolDeps = { sessions, config, log };
  // register_tool never shadows a built-in tool, exposed or not. A tenant's registrations outlive the servers built
  // for its 2026-era requests, so it brings its own.
  const dynamicTools = options.shared?.dynamicTools ?? new DynamicTools(deps, new Set(TOOL_NAMES));
  const detach = dynamicTools.attach(server);
  const toolDeps = { ...deps, dynamicTools, version };
  const tools = new Map(TOOLS.map((tool: ToolEntry) => [tool.name, tool.register(server, toolDeps)]));
  if (!config.structuredContent) {
    // --no-structured-content: no output schema either, since the SDK (and clients) require structuredContent
    // from a tool that declares one.
    for (const tool of tools.values()) tool.outputSchema = undefined;
  }
  applyToolProfile(tools, config);
  registerSessionFileResources(server, sessions, config.maxReplyBytes);
  registerMcpApps(server);
  // Last: the SDK's tools/list handler exists once a tool is registered, and a change made without the SDK's update()
  // (outputSchema above) does not drop the cache, so it must come before the first tools/list.
  cacheToolList(server, options.shared?.toolList);
  // The client is gone (its transport closed, an HTTP session ended): nobody can reach its sessions any more.
  server.server.onclose = () => {
    detach();
    if (options.closeSessionsOnDisconnect === false) return;
    void sessions.closeAll().catch((error: Error) => log(`error while closing sessions: ${error.message}`));
  };
  return {
    server,
    close: async () => {
      await sessions.closeAll();
      await server.close();
    },
  };
}
