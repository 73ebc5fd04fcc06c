/**
 * createMcpServer(): the MCP server of the command, in-process, over a sandbox: connect it to any transport (the
 * SDK's InMemoryTransport, a Streamable HTTP transport of the app's own, …). No child process for the server itself.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { createSandbox, serveMcp, type Sandbox } from './sandbox.js';
import type { SandboxOptions } from './options.js';

/**
 * Sandbox options (a sandbox of its own, closed with the server), or `{ sandbox }` to serve an existing one (its
 * sessions stay open when the server closes, except those this server's client created).
 */
export type McpServerOptions = SandboxOptions | { sandbox: Sandbox };

/**
 * An SDK McpServer with every tool and the session:// resources of the command. Its client sees only the sessions it
 * created; closing the server (`server.close()`, or its transport closing) closes them, and the sandbox too when
 * the server made its own.
 */
export async function createMcpServer(options: McpServerOptions = {}): Promise<McpServer> {
  const shared = 'sandbox' in options ? options.sandbox : undefined;
  const sandbox = shared ?? (await createSandbox(options as SandboxOptions));
  let server: McpServer;
  try {
    ({ server } = sandbox[serveMcp]());
  } catch (error) {
    // The server could not be built: the sandbox made for it must not linger. (Bad options were refused by createSandbox.)
    if (!shared) await sandbox.close();
    throw error;
  }
  if (!shared) {
    // The server's own sandbox ends with it (its sessions were closed by the server's own onclose).
    const closeSessions = server.server.onclose;
    server.server.onclose = () => {
      closeSessions?.();
      void sandbox.close();
    };
  }
  return server;
}
