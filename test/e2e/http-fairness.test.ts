/**
 * No client can exhaust the Streamable HTTP server: request bodies are held under a server and a per-client byte
 * budget (refused with 503 + Retry-After, 413, 408 past the read deadline), each client has a bound on requests in
 * flight (429) and a share of --max-sessions (CLIENT_SESSION_LIMIT); meanwhile a bystander client is served.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { eventually, textOf } from '../helpers.js';
import { connectHttp, JSON_HEADERS, paddedPing, rawPost, rssOf, sessionIdOf, startHttp, type RunningHttp } from '../http-helpers.js';

const call = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args }, { timeout: 120_000 }) as Promise<CallToolResult>;
const MiB = 2 ** 20;

describe('request bodies under byte budgets', () => {
  // --max-file-bytes 1 MiB makes the largest message 2,796,206 bytes (see maxMessageBytes).
  const MAX_BODY = 2_796_206;
  const BIG = 2_600_000;
  let server: RunningHttp;
  before(async () => {
    server = await startHttp(
      [
        '--max-file-bytes',
        String(MiB),
        '--max-inflight-body-bytes',
        String(8 * MiB),
        '--max-client-body-bytes',
        String(4 * MiB),
        '--http-body-timeout',
        // Long enough for a loaded machine to read every refusal: at the deadline a stalled body's connection is
        // destroyed, and a reply the client has not read yet is lost with it (TCP reset).
        '20',
      ],
      { PYODIDE_MCP_WARM_SESSIONS: '0' },
    );
  });
  after(() => server.stop());

  it('refuses bodies past the budgets (503, Retry-After) or too large (413) at once, within a bounded RSS; a bystander is served; a held body is dropped at the deadline (408)', async () => {
    const bystander = await connectHttp(server.url);
    const attackers = await Promise.all([1, 2, 3].map(() => connectHttp(server.url)));
    const headersOf = (client: Client) => ({ ...JSON_HEADERS, 'mcp-session-id': sessionIdOf(client) });
    const [a1, a2, a3] = attackers.map(headersOf) as unknown as [Record<string, string>, Record<string, string>, Record<string, string>];
    const rssBefore = rssOf(server.child.pid!);

    // Two bodies held at 95 %, from two clients: 5.2 MB of the server's 8 MiB (of which 1 MiB is kept for small bodies).
    const held = [a1, a2].map((headers) => rawPost(server.url, headers, paddedPing(1, BIG), { stallAfter: Math.floor(BIG * 0.95) }));
    const heldAt = Date.now();
    // Each is admitted once its headers are read: the same client's next big body then exceeds its own budget.
    for (const headers of [a1, a2]) {
      await eventually(
        async () => {
          const probe = await rawPost(server.url, headers, paddedPing(2, BIG)).reply;
          if (probe.status !== 503) return false;
          assert.equal(probe.headers['retry-after'], '2');
          assert.match(await probe.body, /this client would exceed 4194304 bytes \(--max-client-body-bytes; /);
          return true;
        },
        5000,
        'the held body admitted',
      );
    }

    // A flood of held bodies from a third client: refused before they are read, the server's budget named.
    const flood = Array.from({ length: 30 }, () => rawPost(server.url, a3, paddedPing(3, BIG), { stallAfter: Math.floor(BIG * 0.95) }));
    for (const { reply } of flood) {
      const { status, headers, body } = await reply;
      assert.equal(status, 503);
      assert.equal(headers['retry-after'], '2');
      // Its connection is not kept: the rest of a refused body is never read.
      assert.equal(headers.connection, 'close');
      assert.match(await body, /the server \(all clients\) would exceed 8388608 bytes \(--max-inflight-body-bytes; .*Retry after/);
    }
    // Without Content-Length: counted as it arrives, refused once past what is left.
    const chunked = await rawPost(server.url, a3, paddedPing(4, BIG), { declare: false }).reply;
    assert.equal(chunked.status, 503);
    assert.match(await chunked.body, /--max-inflight-body-bytes/);
    const tooLarge = await rawPost(server.url, a3, paddedPing(5, MAX_BODY + 1)).reply;
    assert.equal(tooLarge.status, 413);
    assert.match(await tooLarge.body, new RegExp(`at most ${MAX_BODY} bytes .*Send a smaller one`));
    const malformed = await rawPost(server.url, a3, '{"jsonrpc": ').reply;
    assert.equal(malformed.status, 400);
    assert.match(await malformed.body, /"code":-32700.*not valid JSON/);

    // The bystander's small calls use the reserve.
    const info = await call(bystander, 'server_info');
    assert.ok(!info.isError, textOf(info));
    const rssDuring = rssOf(server.child.pid!);
    // Offered: 32 bodies of 2.6 MB held at once (83 MB). Held: two of them (5.2 MB), plus the parser's transient buffers.
    assert.ok(rssDuring - rssBefore < 40 * MiB, `RSS grew by ${((rssDuring - rssBefore) / MiB).toFixed(1)} MiB`);
    assert.ok(Date.now() - heldAt < 20_000, 'the checks above ran while the bodies were held (else raise --http-body-timeout)');

    // Slow loris: the held bodies get 408 at the deadline and their bytes are released.
    for (const { reply } of held) {
      const { status, body } = await reply;
      assert.equal(status, 408);
      assert.match(await body, /did not arrive within 20 s \(--http-body-timeout\)/);
    }
    const served = await rawPost(server.url, a3, paddedPing(6, BIG)).reply;
    assert.equal(served.status, 200);
    assert.match(await served.body, /"result":\{\}.*"id":6/);
    for (const { abort } of [...held, ...flood]) abort();
    await Promise.all([bystander, ...attackers].map((client) => client.close()));
  });
});

describe('a share of the server per client', () => {
  let server: RunningHttp;
  before(async () => {
    server = await startHttp(['--max-sessions', '4', '--max-sessions-per-client', '1', '--max-client-requests', '4'], {
      PYODIDE_MCP_WARM_SESSIONS: '2',
    });
  });
  after(() => server.stop());

  it('a client past its share of sessions gets CLIENT_SESSION_LIMIT; another client still creates one', async () => {
    const alice = await connectHttp(server.url);
    const bob = await connectHttp(server.url);
    const first = await call(alice, 'execute_code', { code: 'x = 1' });
    assert.ok(!first.isError, textOf(first));
    for (const refused of [await call(alice, 'create_session'), await call(alice, 'execute_code', { code: '2' })]) {
      assert.equal(refused.isError, true);
      assert.match(
        textOf(refused),
        /^CLIENT_SESSION_LIMIT: This client already holds 1 sessions.*--max-sessions-per-client.*close_session/,
      );
    }
    const other = await call(bob, 'execute_code', { code: '1 + 1' });
    assert.equal((other.structuredContent as { result: string }).result, '2');
    // Closing one frees the share.
    await call(alice, 'close_session', { session_id: (first.structuredContent as { session_id: string }).session_id });
    assert.ok(!(await call(alice, 'create_session')).isError);
    await Promise.all([alice.close(), bob.close()]);
  });

  it('refuses a client’s requests past --max-client-requests (429) while another client is served; cancellations pass and free the places', async () => {
    const alice = await connectHttp(server.url);
    const bob = await connectHttp(server.url);
    const headers = { ...JSON_HEADERS, 'mcp-session-id': sessionIdOf(alice) };
    const request = (id: number, method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method, params });

    // A flood of tools/list in one batch: more than the bound at once.
    const batch = await rawPost(server.url, headers, JSON.stringify([1, 2, 3, 4, 5].map((id) => request(id, 'tools/list')))).reply;
    assert.equal(batch.status, 429);
    assert.equal(batch.headers['retry-after'], '1');
    assert.match(await batch.body, /already has 0 requests awaiting replies \(--max-client-requests 4\)\. Wait for some replies/);

    // Four calls that stay in flight (one runs, three wait for the session), then one more.
    const created = await call(alice, 'create_session');
    const { session_id } = created.structuredContent as { session_id: string };
    const running = [11, 12, 13, 14].map((id) =>
      rawPost(
        server.url,
        headers,
        JSON.stringify(request(id, 'tools/call', { name: 'execute_code', arguments: { session_id, code: 'while True: pass' } })),
      ),
    );
    for (const { reply } of running) assert.equal((await reply).status, 200);
    const flood = await Promise.all(
      [21, 22, 23].map((id) => rawPost(server.url, headers, JSON.stringify(request(id, 'tools/list'))).reply),
    );
    for (const refused of flood) {
      assert.equal(refused.status, 429);
      assert.match(await refused.body, /already has 4 requests awaiting replies \(--max-client-requests 4\)/);
    }
    // Bob is not limited by Alice's calls.
    const info = await call(bob, 'server_info');
    assert.ok(!info.isError, textOf(info));

    // Cancellations are notifications: they pass, and each cancelled call's stream is closed, freeing its place.
    for (const id of [11, 12, 13, 14]) {
      const cancel = await rawPost(
        server.url,
        headers,
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'test' } }),
      ).reply;
      assert.equal(cancel.status, 202);
    }
    for (const { reply } of running) await (await reply).body;
    const after = await rawPost(server.url, headers, JSON.stringify(request(31, 'tools/list'))).reply;
    assert.equal(after.status, 200);
    assert.match(await after.body, /"tools":\[/);
    // The interrupted session still answers.
    const next = await call(alice, 'execute_code', { session_id, code: '6 * 7' });
    assert.equal((next.structuredContent as { result: string }).result, '42');
    await Promise.all([alice.close(), bob.close()]);
  });
});
