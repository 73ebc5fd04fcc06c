/**
 * Tool behaviour over the SDK's in-memory transport: createServer() in this process, the SDK's real Client, real
 * session processes with real Pyodide. Faster than spawning the bin, and it proves the server needs no stdio.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { TOOL_NAMES } from '../../src/server/tools/index.js';
import { startInMemory, type InMemoryServer } from './in-memory.js';

describe('tools over the in-memory transport', () => {
  let running: InMemoryServer;
  let client: Client;
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args }, { timeout: 300_000 })) as CallToolResult;
  const ok = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await call(name, args);
    assert.ok(!result.isError, JSON.stringify(result.content));
    return result.structuredContent as Record<string, any>;
  };

  before(async () => {
    running = await startInMemory(['--preload', 'none', '--warm-sessions', '0', '--max-output-chars', '50', '--max-reply-bytes', '65536']);
    ({ client } = running);
  });
  after(() => running.close());

  it('lists every tool with an input and an output schema', async () => {
    const { tools } = await client.listTools();
    assert.ok(tools.length >= 14);
    for (const tool of tools) assert.ok(tool.inputSchema && tool.outputSchema, `${tool.name} has schemas`);
    // The tool index names each tool as its module registers it: the profiles and --tools rely on those names.
    assert.deepEqual(
      tools.map((tool) => tool.name),
      TOOL_NAMES,
    );
  });

  it('keeps state, caps output on the host and reports the cut', async () => {
    const first = await ok('execute_code', { code: 'x = 41' });
    const r = await ok('execute_code', { session_id: first.session_id, code: "print('z' * 500)\nx + 1" });
    assert.equal(r.result, '42');
    assert.equal(r.stdout.length, 50);
    assert.equal(r.truncated.stdout, 451);
  });

  it('writes, lists, reads and deletes files; unknown sessions and paths get coded errors', async () => {
    const { session_id } = await ok('create_session');
    await ok('write_file', { session_id, path: 'data/a.txt', content: 'hello' });
    assert.deepEqual(
      (await ok('list_files', { session_id })).entries.map((e: { path: string }) => e.path),
      ['data', 'data/a.txt'],
    );
    assert.equal((await ok('read_file', { session_id, path: 'data/a.txt' })).content, 'hello');
    assert.equal((await ok('execute_code', { session_id, code: "open('data/a.txt').read()" })).result, "'hello'");
    await ok('delete_file', { session_id, path: 'data/a.txt' });
    const missing = await call('read_file', { session_id, path: 'data/a.txt' });
    assert.match((missing.content[0] as { text: string }).text, /^FILE_NOT_FOUND/);
    const unknown = await call('execute_code', { session_id: 'nope', code: '1' });
    assert.match((unknown.content[0] as { text: string }).text, /^SESSION_NOT_FOUND/);
  });

  it('never sends a reply above --max-reply-bytes: too broad a request gets an error that says how to narrow it', async () => {
    const { session_id } = await ok('execute_code', {
      code: "import os\nfor i in range(400):\n    open(f'{i:03}_' + 'n' * 150, 'w').close()\nopen('big.txt', 'w').write('x' * 100_000)",
    });
    const listing = await call('list_files', { session_id });
    assert.match((listing.content[0] as { text: string }).text, /^REPLY_TOO_LARGE: .*--max-reply-bytes.*list a subdirectory/);
    await assert.rejects(client.readResource({ uri: `session://${session_id}/big.txt` }), /REPLY_TOO_LARGE: .*read_file/);
    const page = await ok('read_file', { session_id, path: 'big.txt' });
    assert.ok(page.truncated && page.length <= 65536 / 3, 'read_file pages within the budget');
    const flood = await call('execute_code', { session_id, code: "print('p' * 5000)\n'r' * 9000" });
    assert.ok(Buffer.byteLength(JSON.stringify(flood)) <= 65536);
  });
});
