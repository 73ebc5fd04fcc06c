/**
 * The built command with --http, driven by the SDK's StreamableHTTPClientTransport on 127.0.0.1: the token, the
 * Host/Origin check, body limits, two clients that cannot reach each other's sessions, progress, cancellation,
 * DELETE closing a client's sessions, refusing a public address without a token, and a graceful SIGTERM.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { CLI, eventually, textOf } from '../helpers.js';
import { connectHttp, startHttp, type RunningHttp } from '../http-helpers.js';

const TOKEN = 'test-token-0123456789abcdef';

const call = (client: Client, name: string, args: Record<string, unknown> = {}, options: Parameters<Client['callTool']>[1] = {}) =>
  client.callTool({ name, arguments: args }, { timeout: 120_000, ...options }) as Promise<CallToolResult>;

/** A raw HTTP request (node:http, which lets a test set Host), answered with status and body. */
function raw(
  url: URL,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'POST', headers: options.headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('Streamable HTTP with a token', () => {
  let server: RunningHttp;
  before(async () => {
    server = await startHttp(['--max-code-chars', '1000', '--max-file-bytes', '1024'], { PYODIDE_MCP_AUTH_TOKEN: TOKEN });
  });
  after(() => server.stop());

  it('refuses requests without the right bearer token (401), before reading them', async () => {
    const wrong: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-token-0123456789abc' },
      { authorization: TOKEN },
      { authorization: `Basic ${TOKEN}` },
    ];
    for (const headers of wrong) {
      const { status, body } = await raw(server.url, { headers: { ...JSON_HEADERS, ...headers }, body: INIT });
      assert.equal(status, 401, JSON.stringify(headers));
      assert.match(body, /Unauthorized/);
    }
    await assert.rejects(connectHttp(server.url), /401|Unauthorized/);
    await assert.rejects(connectHttp(server.url, 'x'.repeat(TOKEN.length)), /401|Unauthorized/);
  });

  it('refuses a foreign Host or Origin (DNS rebinding) and other paths', async () => {
    const auth = { ...JSON_HEADERS, authorization: `Bearer ${TOKEN}` };
    assert.equal((await raw(server.url, { headers: { ...auth, host: 'evil.example' }, body: INIT })).status, 403);
    assert.equal(
      (await raw(server.url, { headers: { ...auth, host: `evil.example@127.0.0.1:${server.url.port}` }, body: INIT })).status,
      403,
    );
    assert.equal((await raw(server.url, { headers: { ...auth, origin: 'http://evil.example' }, body: INIT })).status, 403);
    assert.equal((await raw(server.url, { headers: { ...auth, origin: 'null' }, body: INIT })).status, 403);
    assert.equal((await raw(new URL('/other', server.url), { headers: auth, body: INIT })).status, 404);
    const local = await raw(server.url, {
      headers: { ...auth, host: `localhost:${server.url.port}`, origin: `http://localhost:${server.url.port}` },
      body: INIT,
    });
    assert.equal(local.status, 200, local.body);
    // An unknown MCP session id: 404, as the spec says, so the client starts over.
    assert.equal((await raw(server.url, { headers: { ...auth, 'mcp-session-id': 'made-up' }, body: INIT })).status, 404);
  });

  it('refuses a body above the server’s message limit with 413', async () => {
    const big = Buffer.alloc(3 * 2 ** 20, 0x20);
    const { status } = await raw(server.url, { headers: { ...JSON_HEADERS, authorization: `Bearer ${TOKEN}` }, body: big });
    assert.equal(status, 413);
  });

  it('serves several clients, each confined to its own Python sessions; DELETE closes them', async () => {
    const alice = await connectHttp(server.url, TOKEN);
    const bob = await connectHttp(server.url, TOKEN);
    const ran = await call(alice, 'execute_code', { code: 'secret = 42\nsecret' });
    const { session_id: id, result } = ran.structuredContent as { session_id: string; result: string };
    assert.equal(result, '42');
    const denied = await call(bob, 'execute_code', { code: 'secret', session_id: id });
    assert.equal(denied.isError, true);
    assert.match(textOf(denied), new RegExp(`^SESSION_NOT_FOUND: Session "${id}" does not exist`));
    assert.deepEqual((await call(bob, 'list_sessions')).structuredContent, { sessions: [] });
    await assert.rejects(bob.readResource({ uri: `session://${id}/x.txt` }), /SESSION_NOT_FOUND/);
    assert.equal(((await call(alice, 'list_sessions')).structuredContent as { sessions: unknown[] }).sessions.length, 1);
    assert.equal(
      ((await call(alice, 'execute_code', { code: 'secret', session_id: id })).structuredContent as { result: string }).result,
      '42',
    );

    await (alice.transport as StreamableHTTPClientTransport).terminateSession();
    await eventually(async () => server.stderr().includes(`session ${id} closed`), 10_000, "alice's Python session closed");
    await alice.close();
    await bob.close();
  });

  it('sends progress while a cell runs and interrupts it on cancellation; the session survives', async () => {
    const client = await connectHttp(server.url, TOKEN);
    const created = await call(client, 'execute_code', { code: 'kept = 1' });
    const { session_id } = created.structuredContent as { session_id: string };
    const controller = new AbortController();
    const progress: number[] = [];
    const running = call(
      client,
      'execute_code',
      { code: 'while True: pass', session_id },
      {
        signal: controller.signal,
        onprogress: (p) => {
          progress.push(p.progress);
          controller.abort();
        },
      },
    );
    await assert.rejects(running, /abort/i);
    assert.ok(progress.length >= 1);
    // The cell was interrupted (not left running): the session answers its next call with its variables.
    const next = await call(client, 'execute_code', { code: 'kept + 1', session_id });
    assert.equal((next.structuredContent as { result: string }).result, '2');
    await client.close();
  });
});

describe('Streamable HTTP without a token', () => {
  it('serves loopback without a token', async () => {
    const server = await startHttp([]);
    const client = await connectHttp(server.url);
    assert.equal(((await call(client, 'execute_code', { code: '6 * 7' })).structuredContent as { result: string }).result, '42');
    await client.close();
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
  });

  it('refuses to bind a non-loopback address without a token (exit 2)', async () => {
    const child = spawn(process.execPath, [CLI, '--http', '0.0.0.0:0'], {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 2);
    assert.match(stderr, /refusing to serve on 0\.0\.0\.0 without --auth-token/);
  });

  it('on SIGTERM, once --drain-grace is over, answers the running call with a clear error, terminates the sessions and exits 0', async () => {
    // A warm session too: the exit ends it as well. SIGTERM drains: the running call gets --drain-grace to end first.
    const server = await startHttp(['--drain-grace', '0.5'], { PYODIDE_MCP_WARM_SESSIONS: '1' });
    const client = await connectHttp(server.url);
    let started!: () => void;
    const progressed = new Promise<void>((resolve) => (started = resolve));
    const running = call(client, 'execute_code', { code: 'while True: pass' }, { onprogress: () => started() });
    await progressed;
    server.child.kill('SIGTERM');
    const reply = await running;
    assert.equal(reply.isError, true);
    assert.match(textOf(reply), /^SERVER_CLOSING: /);
    assert.equal(await server.exited, 0);
    assert.match(server.stderr(), /shutting down \(SIGTERM\)/);
  });
});
