/**
 * Both protocol eras on both transports: a 2026-07-28 client (the v2 SDK's Client, no initialize, no MCP session), the
 * v2 Client on the 2025 handshake (2025-11-25, and pinned to 2025-06-18 and 2025-03-26), and the v1 SDK's Client (what
 * the agent frameworks bring) use the same server program over stdio and one running server over Streamable HTTP, and
 * get the same tools and the same replies. Over HTTP each 2025 client sees only its own sessions; 2026 requests share
 * their tenant's (the bearer token's). The 2026 client sends session_id in Mcp-Param-Session, checked against the body;
 * it hears tools/list_changed on its subscriptions/listen stream, and its tenant's registered tools are on every request.
 * With --auth-token-file, 2026 clients of two tenants see only their own sessions.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport as StdioClientTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, startServer } from '../helpers.js';
import { startHttp, type RunningHttp } from '../http-helpers.js';

const MODERN = { versionNegotiation: { mode: { pin: '2026-07-28' as const } } };
const pinned = (version: string) => ({ supportedProtocolVersions: [version] });

/** What a client does in every era: its era, the tools, two cells in one session, its sessions. */
interface Driven {
  era: string;
  tools: unknown;
  first: Record<string, unknown>;
  second: Record<string, unknown>;
  sessions: string[];
  sessionId: string;
}

// Both SDKs' results: the v1 type also names the compatibility form ({ toolResult }), which this server never sends.
type AnyCall = (name: string, args: Record<string, unknown>) => Promise<object>;

async function drive(era: string, listTools: () => Promise<{ tools: unknown[] }>, call: AnyCall): Promise<Driven> {
  const ok = async (name: string, args: Record<string, unknown>) => {
    const result = (await call(name, args)) as { structuredContent?: unknown; isError?: unknown; content?: unknown };
    assert.ok(!result.isError, `${era} ${name}: ${JSON.stringify(result.content)}`);
    return result.structuredContent as Record<string, any>;
  };
  const { tools } = await listTools();
  const first = await ok('execute_code', { code: 'x = 20\nprint("hi")\nx + 1' });
  const sessionId = first.session_id as string;
  const second = await ok('execute_code', { code: 'x * 2', session_id: sessionId });
  const listed = await ok('list_sessions', {});
  return { era, tools, first, second, sessions: listed.sessions.map((s: { session_id: string }) => s.session_id), sessionId };
}

/** A reply without what differs from run to run. */
function shape(reply: Record<string, unknown>) {
  const { session_id: _id, duration_ms: _ms, ...rest } = reply;
  void _id;
  void _ms;
  return rest;
}

function assertSameService(results: Driven[]) {
  const [reference, ...others] = results;
  assert.ok(reference);
  assert.equal(reference.first.result, '21');
  assert.equal(reference.first.stdout, 'hi\n');
  assert.equal(reference.second.result, '40');
  for (const other of others) {
    assert.deepEqual(other.tools, reference.tools, `${other.era}: the same tools as ${reference.era}`);
    assert.deepEqual(shape(other.first), shape(reference.first), `${other.era}: the same reply`);
    assert.deepEqual(shape(other.second), shape(reference.second), `${other.era}: the same reply`);
  }
}

describe('stdio: each era against the same server program', () => {
  it('a 2026-07-28 client, the v2 client on 2025-11-25, 2025-06-18 and 2025-03-26, and the v1 client get the same service', async () => {
    const results: Driven[] = [];
    for (const [era, options] of [
      ['2026-07-28', MODERN],
      ['2025-11-25', undefined],
      ['2025-06-18', pinned('2025-06-18')],
      ['2025-03-26', pinned('2025-03-26')],
    ] as const) {
      const h = await startServer([], {}, options);
      try {
        assert.equal(h.client.getNegotiatedProtocolVersion(), era);
        results.push(await drive(era, () => h.client.listTools(), h.call));
      } finally {
        await h.close();
      }
    }
    const v1 = new ClientV1({ name: 'v1', version: '0' });
    await v1.connect(
      new StdioClientTransportV1({
        command: process.execPath,
        args: [CLI],
        env: { PATH: process.env.PATH ?? '', PYODIDE_MCP_PRELOAD: 'none', PYODIDE_MCP_WARM_SESSIONS: '0' },
        stderr: 'ignore',
      }),
    );
    try {
      results.push(
        await drive(
          'v1 (2025-11-25)',
          () => v1.listTools(),
          (name, args) => v1.callTool({ name, arguments: args }),
        ),
      );
    } finally {
      await v1.close();
    }
    assertSameService(results);
    for (const result of results) assert.deepEqual(result.sessions, [result.sessionId], `${result.era}: its own session`);
  });
});

describe('stdio: a 2026-07-28 client', () => {
  it('hears tools/list_changed on its listen stream and calls a registered tool', async () => {
    const h = await startServer([], {}, MODERN);
    try {
      let heard = () => {};
      const changed = new Promise<void>((resolve) => (heard = resolve));
      h.client.setNotificationHandler('notifications/tools/list_changed', () => heard());
      const subscription = await h.client.listen({ toolsListChanged: true });
      const { session_id } = await h.ok('execute_code', { code: 'def twice(n: int) -> int:\n    return 2 * n' });
      await h.ok('register_tool', { session_id, function: 'twice' });
      await changed;
      assert.equal((await h.ok('twice', { n: 21 })).result, '42');
      await subscription.close();
    } finally {
      await h.close();
    }
  });
});

describe('Streamable HTTP: every era on one running server', () => {
  let server: RunningHttp;
  before(async () => {
    // A 2026 tenant's sessions outlive its requests (there is no MCP session to end them): the tests close theirs,
    // and the tenant's share is named rather than left to this machine's memory budget.
    server = await startHttp(['--max-sessions-per-client', '4'], { PYODIDE_MCP_MAX_TOTAL_MEMORY_MB: '65536' });
  });
  after(() => server.stop());

  const v2 = async (options?: ConstructorParameters<typeof ClientV2>[1], fetchSpy?: typeof fetch) => {
    const client = new ClientV2({ name: 'v2', version: '0' }, options);
    await client.connect(new StreamableHTTPClientTransport(server.url, fetchSpy ? { fetch: fetchSpy } : undefined));
    return client;
  };

  it('the same tools and replies; 2025 clients see their own sessions, 2026 requests their tenant’s', async () => {
    const headers: Record<string, string>[] = [];
    const spy: typeof fetch = (url, init) => {
      const sent = new Headers(init?.headers);
      if (sent.get('mcp-method') === 'tools/call') headers.push(Object.fromEntries([...sent].filter(([k]) => k.startsWith('mcp-'))));
      return fetch(url, init);
    };
    const modern = await v2(MODERN, spy);
    const modernAgain = await v2(MODERN);
    const legacy = await v2();
    const legacy0618 = await v2(pinned('2025-06-18'));
    const legacy0326 = await v2(pinned('2025-03-26'));
    const v1 = new ClientV1({ name: 'v1', version: '0' });
    await v1.connect(new StreamableHTTPClientTransportV1(server.url));
    try {
      assert.equal(modern.getProtocolEra(), 'modern');
      assert.equal(legacy.getNegotiatedProtocolVersion(), '2025-11-25');
      assert.equal(legacy0618.getNegotiatedProtocolVersion(), '2025-06-18');
      assert.equal(legacy0326.getNegotiatedProtocolVersion(), '2025-03-26');
      const results = await Promise.all([
        drive(
          '2026-07-28',
          () => modern.listTools(),
          (name, args) => modern.callTool({ name, arguments: args }),
        ),
        drive(
          '2025-11-25',
          () => legacy.listTools(),
          (name, args) => legacy.callTool({ name, arguments: args }),
        ),
        drive(
          '2025-06-18',
          () => legacy0618.listTools(),
          (name, args) => legacy0618.callTool({ name, arguments: args }),
        ),
        drive(
          '2025-03-26',
          () => legacy0326.listTools(),
          (name, args) => legacy0326.callTool({ name, arguments: args }),
        ),
        drive(
          'v1 (2025-11-25)',
          () => v1.listTools(),
          (name, args) => v1.callTool({ name, arguments: args }),
        ),
      ]);
      assertSameService(results);
      const [modernResult, ...legacyResults] = results;
      for (const result of legacyResults) assert.deepEqual(result.sessions, [result.sessionId], `${result.era}: only its own session`);
      // 2026 requests have no MCP session: another 2026 client with the same token is the same tenant.
      assert.deepEqual(modernResult!.sessions, [modernResult!.sessionId]);
      const fromOther = await modernAgain.callTool({ name: 'execute_code', arguments: { code: 'x', session_id: modernResult!.sessionId } });
      assert.equal((fromOther.structuredContent as { result: string }).result, '20');
      // ...and no 2025 client reaches a 2026 tenant's session, nor the other way round.
      const crossed = await legacy.callTool({ name: 'execute_code', arguments: { code: 'x', session_id: modernResult!.sessionId } });
      assert.equal(crossed.isError, true);
      const crossedBack = await modern.callTool({
        name: 'execute_code',
        arguments: { code: 'x', session_id: legacyResults[0]!.sessionId },
      });
      assert.equal(crossedBack.isError, true);

      // The session id went out in Mcp-Param-Session.
      assert.ok(headers.some((h) => h['mcp-param-session'] === modernResult!.sessionId && h['mcp-name'] === 'execute_code'));
      await modern.callTool({ name: 'close_session', arguments: { session_id: modernResult!.sessionId } });
    } finally {
      await Promise.all([modern, modernAgain, legacy, legacy0618, legacy0326, v1].map((client) => client.close()));
    }
  });

  it('a 2026 client: its registered tools on every request, tools/list_changed on its listen stream, its files as resources', async () => {
    const modern = await v2(MODERN);
    const legacy = await v2();
    try {
      let heard = () => {};
      const changed = new Promise<void>((resolve) => (heard = resolve));
      modern.setNotificationHandler('notifications/tools/list_changed', () => heard());
      const subscription = await modern.listen({ toolsListChanged: true });
      assert.equal(subscription.honoredFilter.toolsListChanged, true);
      const made = await modern.callTool({
        name: 'execute_code',
        arguments: { code: 'def area(r: float) -> float:\n    return 3 * r * r\nopen("out.txt", "w").write("x")' },
      });
      const { session_id } = made.structuredContent as { session_id: string };
      const registered = await modern.callTool({ name: 'register_tool', arguments: { session_id, function: 'area' } });
      assert.ok(!registered.isError, JSON.stringify(registered.content));
      await changed;
      // Each 2026 request has a server of its own: the tenant's registration is on every one of them.
      assert.ok((await modern.listTools()).tools.some((tool) => tool.name === 'area'));
      const called = await modern.callTool({ name: 'area', arguments: { r: 2 } });
      assert.equal((called.structuredContent as { result: string }).result, '12');
      // Not a 2025 client's tool, nor its resource.
      assert.ok(!(await legacy.listTools()).tools.some((tool) => tool.name === 'area'));
      const uri = `session://${session_id}/out.txt`;
      assert.ok((await modern.listResources()).resources.some((resource) => resource.uri === uri));
      assert.ok(!(await legacy.listResources()).resources.some((resource) => resource.uri === uri));
      await subscription.close();
      await modern.callTool({ name: 'close_session', arguments: { session_id } });
    } finally {
      await Promise.all([modern.close(), legacy.close()]);
    }
  });

  it('a 2026 tools/call whose Mcp-Param-Session disagrees with the body is refused (400, -32020), and progress streams', async () => {
    const modern = await v2(MODERN);
    try {
      const made = await modern.callTool({ name: 'execute_code', arguments: { code: 'y = 1' } });
      assert.ok(!made.isError, JSON.stringify(made.content));
      const { session_id } = made.structuredContent as { session_id: string };
      const body = {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'execute_code',
          arguments: { code: 'y', session_id },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      };
      const post = async (param: string | undefined) => {
        const headers: Record<string, string> = {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'execute_code',
        };
        if (param !== undefined) headers['mcp-param-session'] = param;
        const res = await fetch(server.url, { method: 'POST', headers, body: JSON.stringify(body) });
        return { status: res.status, body: (await res.json()) as { error?: { code: number; message: string } } };
      };
      assert.equal((await post(session_id)).status, 200);
      for (const param of ['another-session', undefined]) {
        const refused = await post(param);
        assert.equal(refused.status, 400);
        assert.equal(refused.body.error?.code, -32020);
        assert.match(refused.body.error!.message, /Mcp-Param-Session/);
      }
      const progress: number[] = [];
      const slow = await modern.callTool(
        { name: 'execute_code', arguments: { code: 'import time\nt = time.time()\nwhile time.time() - t < 1.6: pass', session_id } },
        { onprogress: (p) => progress.push(p.progress) },
      );
      assert.equal((slow.structuredContent as { success: boolean }).success, true);
      assert.ok(progress.length >= 1, 'progress notifications reach a 2026 client on the request’s stream');
    } finally {
      await modern.close();
    }
  });
});

describe('Streamable HTTP: 2026-07-28 clients of two tenants (--auth-token-file)', () => {
  it('each tenant sees only its own sessions and tools; another tenant’s session id is not found; no token is 401', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pyodide-mcp-eras-'));
    const tokens = join(dir, 'tokens');
    const [ALICE, BOB] = ['alice-token-0123456789abcdef', 'bob-token-0123456789abcdefgh'];
    writeFileSync(tokens, `alice=${ALICE}\nbob=${BOB}\n`, { mode: 0o600 });
    const server = await startHttp(['--auth-token-file', tokens], { PYODIDE_MCP_MAX_TOTAL_MEMORY_MB: '65536' });
    const modern = async (token: string) => {
      const client = new ClientV2({ name: 'v2', version: '0' }, MODERN);
      await client.connect(
        new StreamableHTTPClientTransport(server.url, { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
      );
      return client;
    };
    const alice = await modern(ALICE);
    const bob = await modern(BOB);
    try {
      const made = await alice.callTool({ name: 'execute_code', arguments: { code: 'secret = 1' } });
      const { session_id } = made.structuredContent as { session_id: string };
      const listed = (await bob.callTool({ name: 'list_sessions', arguments: {} })).structuredContent as { sessions: unknown[] };
      assert.deepEqual(listed.sessions, []);
      const stolen = await bob.callTool({ name: 'execute_code', arguments: { code: 'secret', session_id } });
      assert.equal(stolen.isError, true);
      assert.match(JSON.stringify(stolen.content), /SESSION_NOT_FOUND/);
      await assert.rejects(modern('carol-token-0123456789abcdef'), /401|Unauthorized/);
      await alice.callTool({ name: 'close_session', arguments: { session_id } });
    } finally {
      await Promise.all([alice.close(), bob.close()]);
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
