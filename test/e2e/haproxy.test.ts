/**
 * deploy/haproxy.cfg in front of three instances (distinct --instance-id, one shared --state-dir), all on loopback:
 * a real HAProxy (Debian's `haproxy`; the test skips, saying so, where it is not installed). New MCP sessions
 * spread over the instances; each client's calls reach the instance that holds its session (2025 clients by
 * Mcp-Session-Id, a 2026-07-28 client by Mcp-Param-Session); after kill -9 of an instance, its sessions' next calls
 * are restored on another one, once, with their variables.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { CLI } from '../helpers.js';
import { startHttp, type RunningHttp } from '../http-helpers.js';

const CONFIG = join(CLI, '..', '..', '..', 'deploy', 'haproxy.cfg');
const HAPROXY = spawnSync('haproxy', ['-v'], { encoding: 'utf8' }).status === 0;
const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' as const } } };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const reply = await client.callTool({ name, arguments: args });
  const text = (reply.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
  return { reply, text, data: (reply.structuredContent ?? {}) as Record<string, unknown> };
}

describe(
  'HAProxy in front of three instances (deploy/haproxy.cfg)',
  { skip: HAPROXY ? false : 'haproxy is not installed (apt-get install haproxy)' },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyodide-mcp-haproxy-'));
    const instances: RunningHttp[] = [];
    const clients: Client[] = [];
    let proxy: ChildProcess | undefined;
    let proxyLog = '';
    after(async () => {
      for (const client of clients) await client.close().catch(() => {});
      proxy?.kill('SIGTERM');
      for (const server of instances) if (server.child.exitCode === null && server.child.signalCode === null) await server.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('routes by the id prefix, spreads new sessions, and moves the sessions of a killed and of a drained instance', async () => {
      for (let i = 0; i < 3; i++) {
        instances.push(
          await startHttp(['--instance-id', `pyodide-mcp-${i}`, '--state-dir', dir, '--state-lease', '2'], {
            PYODIDE_MCP_MAX_TOTAL_MEMORY_MB: '16384',
          }),
        );
      }
      const port = await freePort();
      const env: Record<string, string> = { PATH: process.env.PATH ?? '', MCP_BIND: `127.0.0.1:${port}` };
      instances.forEach((server, i) => (env[`MCP_${i}`] = server.url.host));
      proxy = spawn('haproxy', ['-db', '-f', CONFIG], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      proxy.stderr!.on('data', (chunk: Buffer) => (proxyLog += chunk.toString()));
      const url = new URL(`http://127.0.0.1:${port}/mcp`);
      const connect = async (options?: ConstructorParameters<typeof Client>[1]) => {
        const client = new Client({ name: 'via-haproxy', version: '0' }, options);
        await client.connect(new StreamableHTTPClientTransport(url));
        clients.push(client);
        return client;
      };
      // Until the proxy listens and has checked the instances.
      for (let i = 0; ; i++) {
        const res = await fetch(url, { method: 'GET' }).catch(() => null);
        if (res) break;
        assert.ok(i < 100, `haproxy started: ${proxyLog}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const health = await fetch(new URL('/healthz', url));
      assert.equal(health.status, 404, 'the proxy serves /mcp only');

      // Six 2025-era clients (one MCP session each), one session each.
      const legacy: { client: Client; session: string }[] = [];
      for (let i = 0; i < 6; i++) {
        const client = await connect();
        const session = (await call(client, 'execute_code', { code: `x = ${i}` })).data.session_id as string;
        const mcp = (client.transport as StreamableHTTPClientTransport).sessionId!;
        // The MCP session and the Python session were made by the same instance.
        assert.equal(session.split('.')[0], mcp.split('.')[0]);
        legacy.push({ client, session });
      }
      const spread = new Map<string, number>();
      for (const { session } of legacy) spread.set(session.split('.')[0]!, (spread.get(session.split('.')[0]!) ?? 0) + 1);
      assert.ok(spread.size >= 2, `new sessions spread: ${JSON.stringify([...spread])}`);
      for (const [i, { client, session }] of legacy.entries()) {
        assert.equal((await call(client, 'execute_code', { session_id: session, code: 'x * 10' })).data.result, String(i * 10));
      }

      // A 2026-07-28 client: no MCP session; its calls are routed by Mcp-Param-Session.
      const modern = await connect(MODERN);
      const ms = (await call(modern, 'execute_code', { code: 'y = 7' })).data.session_id as string;
      for (let i = 0; i < 3; i++) assert.equal((await call(modern, 'execute_code', { session_id: ms, code: 'y' })).data.result, '7');

      // kill -9 the instance that holds the 2026 client's session.
      const victim = Number(ms.split('.')[0]!.slice('pyodide-mcp-'.length));
      instances[victim]!.child.kill('SIGKILL');
      await instances[victim]!.exited;
      await new Promise((r) => setTimeout(r, 2500)); // --state-lease 2: its leases are stale now
      const moved = await call(modern, 'execute_code', { session_id: ms, code: 'y + 1' });
      assert.ok(!moved.reply.isError, moved.text);
      assert.equal(moved.data.result, '8');
      assert.ok(moved.data.restored, 'restored on another instance');
      for (let i = 0; i < 3; i++) {
        const next = await call(modern, 'execute_code', { session_id: ms, code: 'y' });
        assert.ok(!next.reply.isError && !next.data.restored, `later calls meet the same instance: ${next.text}`);
      }

      // The killed instance's 2025 clients lost their MCP session; a new one (anywhere) restores their sessions.
      const orphans = legacy.filter(({ session }) => session.startsWith(`pyodide-mcp-${victim}.`));
      for (const { session } of orphans) {
        const client = await connect();
        const i = legacy.findIndex((l) => l.session === session);
        const back = await call(client, 'execute_code', { session_id: session, code: 'x + 100' });
        assert.ok(!back.reply.isError, back.text);
        assert.equal(back.data.result, String(i + 100));
        assert.ok(back.data.restored);
      }
      // SIGTERM drains the instance that restored the 2026 client's session: the session moves again, at once (the
      // drain released its lease), with nothing lost of its saved state.
      const holder = instances.findIndex((server, i) => i !== victim && server.stderr().includes(`restoring session ${ms}`));
      assert.ok(holder >= 0);
      instances[holder]!.child.kill('SIGTERM');
      assert.equal(await instances[holder]!.exited, 0);
      // Nothing was running there: the drain did not wait for its grace (a client's listen stream is not a call).
      assert.doesNotMatch(instances[holder]!.stderr(), /drain grace over/);
      const drained = await call(modern, 'execute_code', { session_id: ms, code: 'y * 3' });
      assert.ok(!drained.reply.isError, drained.text);
      assert.equal(drained.data.result, '21');
      assert.ok(drained.data.restored, 'restored on the last instance');
      const last = instances.findIndex((_, i) => i !== victim && i !== holder);
      assert.match(instances[last]!.stderr(), new RegExp(`session ${ms.replace('.', '\\.')} restored`));

      // The sessions of the instance still up were not disturbed.
      for (const [i, { client, session }] of legacy.entries()) {
        if (!session.startsWith(`pyodide-mcp-${last}.`)) continue;
        const same = await call(client, 'execute_code', { session_id: session, code: 'x' });
        assert.equal(same.data.result, String(i));
        assert.ok(!same.data.restored);
      }
    });
  },
);
