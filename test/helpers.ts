/**
 * Test helpers: start the built server over real stdio and talk to it with the SDK's own Client; or build a config
 * and a session manager in this process as the command would (testConfig, testManager).
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chooseDistribution, type Distribution } from '../src/python/distribution.js';
import { parseConfig, type Config } from '../src/server/config.js';
import { SessionManager } from '../src/sessions/manager.js';

/** dist/src/cli.js, from dist/test/. */
export const CLI = join(fileURLToPath(import.meta.url), '..', '..', 'src', 'cli.js');

export interface Harness {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  call: (name: string, args?: Record<string, unknown>) => Promise<CallToolResult>;
  /** Calls a tool and returns its structuredContent, failing on isError. */
  ok: <T = Record<string, any>>(name: string, args?: Record<string, unknown>) => Promise<T>;
  close: () => Promise<void>;
}

/**
 * The test files whose sessions run as processes, the server's default (`--isolation process`): those about the
 * process boundary, limits and memory the host measures per process, the supervisor (crashes, kills, drains, restarts),
 * and the per-Node-line set (.ci/run). Every other file runs its sessions as threads (`--isolation thread`), which run
 * the same tools, harness and Python: a bare modern session boots in about 1.2 s as a thread against 3.7 s (6 s of
 * CPU) as a process, which halved the CPU of a suite like notebook-syntax.test.ts (50 s → 23 s, 2026-12-02). A
 * file's flags or env may still name either.
 */
export const PROCESS_ISOLATION_FILES: ReadonlySet<string> = new Set([
  'compiled-packages',
  'drain',
  'execution',
  'foreground',
  'history-bounds',
  'http-fairness',
  'http',
  'install-quota',
  'load-failures',
  'memory-budget',
  'shared-state',
  'state',
  'isolation',
]);

/** The isolation of the sessions of the running test file (node --test runs each file as its own process). */
export const TEST_ISOLATION = PROCESS_ISOLATION_FILES.has(basename(process.argv[1] ?? '').replace(/\.test\.js$/, ''))
  ? 'process'
  : 'thread';

/**
 * Starts `pyodide-mcp` with the given flags (default: no preload, modern runtime, no warm pool, sessions isolated as
 * TEST_ISOLATION says) and connects a client.
 */
export async function startServer(
  flags: string[] = [],
  env: Record<string, string> = {},
  /** The client's options: e.g. `versionNegotiation` for a 2026-07-28 client (default: the 2025 handshake). */
  clientOptions?: ConstructorParameters<typeof Client>[1],
): Promise<Harness> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, ...flags],
    env: {
      PATH: process.env.PATH ?? '',
      PYODIDE_MCP_PRELOAD: 'none',
      // The memory budget defaults to this machine's memory, which would lower the default --max-sessions on a small
      // one; the suites keep more sessions than that, so they name a budget (memory-budget.test.ts tests the budget).
      PYODIDE_MCP_MAX_TOTAL_MEMORY_MB: '65536',
      // No warm pool unless the flags ask for one: every take boots a replacement and the pool keeps two booted, which
      // a test never uses (2.5 s of CPU each bare, 11-14 s with the scientific stack on legacy, at every server).
      PYODIDE_MCP_WARM_SESSIONS: '0',
      PYODIDE_MCP_ISOLATION: TEST_ISOLATION,
      ...env,
    },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'pyodide-mcp-tests', version: '0.0.0' }, clientOptions);
  await client.connect(transport);
  const call = (name: string, args: Record<string, unknown> = {}) =>
    client.callTool({ name, arguments: args }, { timeout: 600_000 }) as Promise<CallToolResult>;
  return {
    client,
    transport,
    stderr: () => stderr,
    call,
    async ok(name, args) {
      const result = await call(name, args);
      if (result.isError) throw new Error(`${name} failed: ${textOf(result)}`);
      return result.structuredContent as any;
    },
    close: () => client.close(),
  };
}

export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
}

/** Polls `check` until it returns true or `ms` pass; for states that change on a server-side timer. */
export async function eventually(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out after ${ms} ms waiting for: ${what}`);
}

/** The config the command builds from `flags` (no env), and the distribution it then chooses. */
export function testConfig(flags: string[] = []): { config: Config; distribution: Distribution } {
  const action = parseConfig(flags, {});
  if (action.action !== 'run') throw new Error(`expected a config from ${flags.join(' ')}, got ${action.action}`);
  const { config } = action;
  return { config, distribution: chooseDistribution(config.runtime, config.preload, config.wheelDirs) };
}

/** A SessionManager with the config and distribution of `flags` (testConfig), its log lines going to `log`. */
export function testManager(flags: string[] = [], log: (message: string) => void = () => {}): SessionManager {
  const { config, distribution } = testConfig(flags);
  return new SessionManager(config, distribution, log);
}
