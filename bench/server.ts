/**
 * The built server as the bench drives it: started over stdio with the SDK's client (the transport an agent uses),
 * its pool waited for, a call timed. Also the run's knobs that every section reads.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { fileURLToPath } from 'node:url';

/** The built bin (dist/src/cli.js). */
export const CLI = fileURLToPath(new URL('../src/cli.js', import.meta.url));
/** bench/ in the source tree (the results and the Jupyter script live there, not in dist/). */
export const BENCH_SOURCE_DIR = fileURLToPath(new URL('../../bench/', import.meta.url));
/** BENCH_QUICK=1: fewer samples per metric, for trying the bench out. */
export const QUICK = process.env.BENCH_QUICK === '1';
/** The scientific preload set the legacy rows use. */
export const STACK = 'numpy,pandas,matplotlib,sympy';
export type Isolation = 'process' | 'thread';

export interface Server {
  client: Client;
  pid: number;
  call: (name: string, args?: Record<string, unknown>) => Promise<Record<string, any>>;
  close: () => Promise<void>;
  /** The server's stderr, by line (the last 1,000). */
  logs: string[];
}

/** The protocol era the bench's client speaks: the 2025 handshake (every framework's client today) or 2026-07-28. */
export type Era = '2025-11-25' | '2026-07-28';

export async function startServer(flags: string[], preload: string, era: Era = '2025-11-25'): Promise<Server> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, ...flags],
    env: { PATH: process.env.PATH ?? '', PYODIDE_MCP_PRELOAD: preload },
    stderr: 'pipe',
  });
  // The server's log, read as it comes (an unread pipe would block the server): some sections wait for a line.
  const logs: string[] = [];
  let partial = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    logs.push(...lines);
    if (logs.length > 1000) logs.splice(0, logs.length - 1000);
  });
  const client = new Client(
    { name: 'pyodide-mcp-bench', version: '0' },
    era === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : undefined,
  );
  try {
    await client.connect(transport);
  } catch (error) {
    // A server that exits at start (a refused flag, the memory budget) says why on stderr: show it, not only "Connection closed".
    if (partial) logs.push(partial);
    throw new Error(`the server did not start (${(error as Error).message}); its last lines:\n${logs.slice(-10).join('\n')}`, {
      cause: error,
    });
  }
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: args }, { timeout: 600_000 })) as CallToolResult;
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    return result.structuredContent as Record<string, any>;
  };
  return { client, pid: transport.pid!, call, close: () => client.close(), logs };
}

export async function waitForWarm(server: Server, count: number, preloaded = false): Promise<void> {
  const until = Date.now() + 180_000;
  while ((await server.call('server_info'))[preloaded ? 'warm_preloaded' : 'warm_sessions'] < count) {
    if (Date.now() > until) throw new Error('warm pool did not refill');
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await work();
  return [performance.now() - started, value];
}
