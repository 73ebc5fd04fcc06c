/**
 * Tenants over Streamable HTTP, driven by the SDK's own Client over its real transport: named tokens from
 * --auth-token-file beside --auth-token; each tenant sees only its own Python sessions, files (resources) and
 * registered tools; another tenant's session_id is unknown to it, word for word; an MCP session id is valid only
 * with the token that opened it; a saved session (--state-dir) is restored only for its tenant after a restart.
 * With --instance-id: prefixed Python and MCP session ids over HTTP, and WRONG_INSTANCE for another instance's id.
 * --max-sessions-per-tenant bounds a tenant's clients together.
 */
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { textOf } from '../helpers.js';
import { connectHttp, JSON_HEADERS, rawPost, sessionIdOf, startHttp } from '../http-helpers.js';

const ALICE = 'alice-token-0123456789abcdef';
const BOB = 'bob-token-0123456789abcdefgh';
const DEFAULT = 'default-token-0123456789abcd';

const call = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args }, { timeout: 120_000 }) as Promise<CallToolResult>;
const structured = async <T = Record<string, any>>(client: Client, name: string, args: Record<string, unknown> = {}) => {
  const reply = await call(client, name, args);
  assert.ok(!reply.isError, `${name}: ${textOf(reply)}`);
  return reply.structuredContent as T;
};

describe('Streamable HTTP tenants (--auth-token-file)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pyodide-mcp-tenants-'));
  const tokens = join(dir, 'tokens');
  const state = join(dir, 'state');
  writeFileSync(tokens, `# tenants of the test\nalice=${ALICE}\nbob=${BOB}\n`, { mode: 0o600 });
  // With an instance id too: its prefix is on Python and MCP session ids over HTTP, and survives the restart.
  const flags = ['--auth-token-file', tokens, '--state-dir', state, '--instance-id', 'py-t', '--max-sessions-per-tenant', '1'];
  const env = { PYODIDE_MCP_AUTH_TOKEN: DEFAULT };
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('confines each tenant to its own sessions, files and tools, and restores a saved session only for its tenant', async () => {
    let server = await startHttp(flags, env);
    let id: string;
    try {
      assert.match(server.stderr(), /tenants: default, alice, bob/);
      const alice = await connectHttp(server.url, ALICE);
      const bob = await connectHttp(server.url, BOB);
      const other = await connectHttp(server.url, DEFAULT);
      await assert.rejects(connectHttp(server.url, 'carol-token-0123456789abcd'), /401|Unauthorized/);

      id = (await structured(alice, 'execute_code', { code: 'def double(n: int) -> int:\n    return 2 * n\nsecret = 41' })).session_id;
      assert.match(id, /^py-t\.[A-Za-z0-9_-]{32}$/);
      assert.match(sessionIdOf(alice), /^py-t\.[A-Za-z0-9_-]{32}$/);
      const elsewhere = await call(alice, 'execute_code', { session_id: `py-u.${id.slice(5)}`, code: 'secret' });
      assert.match(textOf(elsewhere), /^WRONG_INSTANCE: .*belongs to instance "py-u" but this server is instance "py-t"/);
      await structured(alice, 'write_file', { session_id: id, path: 'notes.txt', content: 'alice only' });
      await structured(alice, 'register_tool', { session_id: id, function: 'double' });
      assert.ok((await alice.listTools()).tools.some((tool) => tool.name === 'double'));
      assert.ok((await alice.listResources()).resources.some((r) => r.uri === `session://${id}/notes.txt`));

      for (const stranger of [bob, other]) {
        assert.deepEqual(await structured(stranger, 'list_sessions'), { sessions: [] });
        for (const [name, args] of [
          ['execute_code', { session_id: id, code: 'secret' }],
          ['read_file', { session_id: id, path: 'notes.txt' }],
          ['register_tool', { session_id: id, function: 'double', name: 'stolen' }],
          ['close_session', { session_id: id }],
        ] as const) {
          const denied = await call(stranger, name, args);
          assert.equal(denied.isError, true, name);
          assert.match(textOf(denied), new RegExp(`^SESSION_NOT_FOUND: Session "${id}" does not exist`), name);
        }
        assert.ok(!(await stranger.listTools()).tools.some((tool) => tool.name === 'double'));
        assert.ok(!(await stranger.listResources()).resources.some((r) => r.uri.includes(id)));
        await assert.rejects(stranger.readResource({ uri: `session://${id}/notes.txt` }), /SESSION_NOT_FOUND/);
      }
      // Bob's own session is his, and Alice does not see it; Alice's tenant has used its share (one), Bob's had not.
      const bobs = (await structured(bob, 'execute_code', { code: '1' })).session_id;
      const alice2 = await connectHttp(server.url, ALICE);
      const over = await call(alice2, 'create_session');
      assert.match(textOf(over), /^CLIENT_SESSION_LIMIT: This tenant .* already holds 1 sessions, .*--max-sessions-per-tenant/);
      await alice2.close();
      assert.deepEqual(
        (await structured(alice, 'list_sessions')).sessions.map((s: { session_id: string }) => s.session_id),
        [id],
      );
      assert.deepEqual(
        (await structured(bob, 'list_sessions')).sessions.map((s: { session_id: string }) => s.session_id),
        [bobs],
      );

      // Alice's MCP session with Bob's token: the answer for an MCP session that does not exist.
      const list = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
      const stolen = await rawPost(
        server.url,
        { ...JSON_HEADERS, authorization: `Bearer ${BOB}`, 'mcp-session-id': sessionIdOf(alice) },
        list,
      ).reply;
      assert.equal(stolen.status, 404);
      assert.match(await stolen.body, /Session not found/);
      const own = await rawPost(
        server.url,
        { ...JSON_HEADERS, authorization: `Bearer ${ALICE}`, 'mcp-session-id': sessionIdOf(alice) },
        list,
      ).reply;
      assert.equal(own.status, 200);

      assert.equal((await structured(alice, 'execute_code', { session_id: id, code: 'secret' })).result, '41');
      await Promise.all([alice.close(), bob.close(), other.close()]);
    } finally {
      await server.stop();
    }
    assert.ok(existsSync(join(state, id)), 'the session is kept on disk at shutdown');

    server = await startHttp(flags, env);
    try {
      const bob = await connectHttp(server.url, BOB);
      const denied = await call(bob, 'execute_code', { session_id: id, code: 'secret' });
      assert.match(textOf(denied), new RegExp(`^SESSION_NOT_FOUND: Session "${id}" does not exist`));
      assert.ok(existsSync(join(state, id)), "another tenant's call leaves the saved session alone");
      const alice = await connectHttp(server.url, ALICE);
      assert.equal((await structured(alice, 'execute_code', { session_id: id, code: 'secret + 1' })).result, '42');
      await Promise.all([alice.close(), bob.close()]);
    } finally {
      await server.stop();
    }
  });

  it("refuses to start on a token file others may write, or a tenant named like --auth-token's", async () => {
    const open = join(dir, 'open-tokens');
    writeFileSync(open, `alice=${ALICE}\n`);
    chmodSync(open, 0o666); // not left to the umask
    await assert.rejects(startHttp(['--auth-token-file', open]), /writable by group or others, who could add a tenant/);
    const clash = join(dir, 'clash-tokens');
    writeFileSync(clash, `default=${ALICE}\n`, { mode: 0o600 });
    await assert.rejects(startHttp(['--auth-token-file', clash], env), /names a tenant "default", which is --auth-token's/);
  });
});
