/**
 * createMcpServer() in-process over the SDK's InMemoryTransport: the command's tools over a shared sandbox, each
 * server's client confined to the sessions it created, and a client going away closing its sessions.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { createMcpServer, createSandbox, type Sandbox } from '../../src/index.js';
import { eventually } from '../helpers.js';

async function connect(sandbox: Sandbox): Promise<Client> {
  const server = await createMcpServer({ sandbox });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'in-process', version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}

const call = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

describe('createMcpServer', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await createSandbox({ preload: [], warmSessions: 1, isolation: 'thread', log: () => {} });
  });
  after(() => sandbox.close());

  it('serves the tools in-process; each client sees and reaches only its own sessions', async () => {
    const alice = await connect(sandbox);
    const bob = await connect(sandbox);
    const ran = await call(alice, 'execute_code', { code: 'secret = 42\nsecret' });
    const id = (ran.structuredContent as { session_id: string; result: string }).session_id;
    assert.equal((ran.structuredContent as { result: string }).result, '42');

    const denied = await call(bob, 'execute_code', { code: 'secret', session_id: id });
    assert.equal(denied.isError, true);
    // Word for word what an id that never existed gets: nothing tells bob the session exists.
    assert.equal(
      text(denied),
      text(await call(bob, 'execute_code', { code: '1', session_id: 'x'.repeat(id.length) })).replace('x'.repeat(id.length), id),
    );
    assert.match(text(denied), /^SESSION_NOT_FOUND: /);
    for (const [tool, args] of [
      ['read_file', { session_id: id, path: 'a.txt' }],
      ['list_files', { session_id: id }],
      ['write_file', { session_id: id, path: 'b.txt', content: 'x' }],
      ['close_session', { session_id: id }],
    ] as const) {
      assert.match(text(await call(bob, tool, args)), /^SESSION_NOT_FOUND: /, tool);
    }
    assert.deepEqual((await call(bob, 'list_sessions')).structuredContent, { sessions: [] });
    assert.equal(((await call(alice, 'list_sessions')).structuredContent as { sessions: unknown[] }).sessions.length, 1);
    await call(alice, 'write_file', { session_id: id, path: 'a.txt', content: 'mine' });
    // Session files only (every server also lists its ui:// views, src/view/mcp-apps.ts).
    const files = async (client: typeof bob) => (await client.listResources()).resources.filter((r) => r.uri.startsWith('session://'));
    assert.equal((await files(bob)).length, 0);
    await assert.rejects(bob.readResource({ uri: `session://${id}/a.txt` }), /SESSION_NOT_FOUND/);
    assert.equal((await files(alice)).length, 1);

    // The sandbox (the embedding app) sees every session.
    assert.equal((await sandbox.getSession(id).execute('secret')).result, '42');

    // Alice goes away: her sessions close; bob's are untouched.
    const bobs = (await call(bob, 'create_session')).structuredContent as { session_id: string };
    await alice.close();
    await eventually(async () => !sandbox.listSessions().some((s) => s.session_id === id), 10_000, "alice's session closed");
    assert.ok(sandbox.listSessions().some((s) => s.session_id === bobs.session_id));
    await bob.close();
  });
});
