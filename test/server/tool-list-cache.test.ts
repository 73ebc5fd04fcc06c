/**
 * tools/list from the cache (src/server/tool-list-cache.ts) is the SDK's own list: identical to one built afresh,
 * before and after register_tool, unregister_tool and a session's end; and it is built once per tool-list change.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult, ListToolsResult } from '@modelcontextprotocol/client';
import type { CreatedServer } from '../../src/server/server.js';
import { startInMemory, type InMemoryServer } from './in-memory.js';

describe('tools/list cache', () => {
  let running: InMemoryServer;
  let created: CreatedServer;
  let client: Client;
  /** The server's tools/list handler, called directly: what the client would get, before its own processing. */
  let list: () => Promise<ListToolsResult>;
  const ok = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: args }, { timeout: 300_000 })) as CallToolResult;
    assert.ok(!result.isError, JSON.stringify(result.content));
    return result.structuredContent as Record<string, any>;
  };
  /** The list as the SDK builds it now: the cache dropped first, as on a tool-list change. */
  const fresh = () => {
    created.server.sendToolListChanged();
    return list();
  };
  const names = (result: ListToolsResult) => result.tools.map((t) => t.name);

  before(async () => {
    running = await startInMemory(['--preload', 'none', '--warm-sessions', '0']);
    ({ created, client } = running);
    const handlers = (created.server.server as unknown as { _requestHandlers: Map<string, (r: unknown, e: unknown) => Promise<unknown>> })
      ._requestHandlers;
    const handler = handlers.get('tools/list')!;
    list = () => handler({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }, {}) as Promise<ListToolsResult>;
  });
  after(() => running.close());

  it('answers from the cache until the tool set changes, with the same list the SDK builds', async () => {
    const first = await list();
    const second = await list();
    assert.equal(first.tools, second.tools, 'the second reply is the cached list, not built again');
    assert.notEqual(first, second, 'each reply is an object of its own');
    assert.deepEqual(second, await fresh());
    assert.deepEqual((await client.listTools()).tools, (await fresh()).tools);
  });

  it('shows a registered tool exactly as before: appears on register_tool, goes on unregister_tool and with its session', async () => {
    const before = await list();
    const { session_id } = await ok('execute_code', {
      code: 'def area(width: float, height: float = 1.0) -> float:\n    """Area."""\n    return width * height',
    });
    await ok('register_tool', { session_id, function: 'area' });
    const registered = await list();
    assert.deepEqual(names(registered), [...names(before), 'area']);
    assert.deepEqual(registered, await fresh());
    const area = registered.tools.find((t) => t.name === 'area')!;
    assert.deepEqual(area.inputSchema.required, ['width']);
    assert.deepEqual(
      (await client.listTools()).tools.map((t) => t.name),
      names(registered),
    );

    await ok('unregister_tool', { name: 'area' });
    assert.deepEqual(await list(), before);
    await ok('register_tool', { session_id, function: 'area', name: 'area2' });
    assert.deepEqual(names(await list()), [...names(before), 'area2']);
    // The session ends: its tools go, and the cached list with them.
    await ok('close_session', { session_id });
    assert.deepEqual(await list(), before);
    assert.deepEqual(await list(), await fresh());
  });
});
