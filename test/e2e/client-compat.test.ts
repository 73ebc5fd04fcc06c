/**
 * What agent frameworks' MCP clients need from the server, over real stdio with the SDK client: closed input schemas,
 * null for "not given", nullable results as anyOf, real bounds, replies whose blocks no client drops, a text-only
 * mode, server_info at once and a quiet log. test/clients/ drives the frameworks' own clients.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, textOf, type Harness } from '../helpers.js';

/** Every `type` that is an array (`["string", "null"]`) and every bound of ±(2^53 - 1), with where they are. */
function schemaProblems(schema: unknown, at: string, found: string[] = []): string[] {
  if (Array.isArray(schema)) schema.forEach((item, i) => schemaProblems(item, `${at}[${i}]`, found));
  else if (schema && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'type' && Array.isArray(value)) found.push(`${at}.type is ${JSON.stringify(value)}`);
      if (typeof value === 'number' && Math.abs(value) === Number.MAX_SAFE_INTEGER) found.push(`${at}.${key} is ${value}`);
      schemaProblems(value, `${at}.${key}`, found);
    }
  }
  return found;
}

/** A 1×1 PNG, for an object that shows itself as an image through the display protocol. */
const PNG_CELL =
  'import base64\n' +
  'class Dot:\n' +
  '    def _repr_png_(self):\n' +
  '        return base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")\n' +
  'display(Dot())';

describe('schemas every framework converts', () => {
  let h: Harness;
  before(async () => {
    h = await startServer(['--warm-sessions', '0']);
  });
  after(() => h.close());

  it('input objects are closed, nullable fields are anyOf, and no bound is a made-up ±2^53', async () => {
    const { tools } = await h.client.listTools();
    assert.ok(tools.length >= 14);
    for (const tool of tools) {
      assert.equal(tool.inputSchema.additionalProperties, false, `${tool.name}: input object is open`);
      assert.ok(tool.outputSchema, `${tool.name} has an output schema`);
      assert.deepEqual(schemaProblems(tool, tool.name), []);
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const property = (tool: string, name: string) => (byName.get(tool)!.inputSchema.properties as Record<string, any>)[name];
    const branch = (schema: any) => schema.anyOf.find((s: any) => s.type !== 'null');
    assert.equal(branch(property('read_file', 'length')).maximum, 1048576, 'the real --max-read-bytes');
    assert.equal(branch(property('execute_code', 'timeout_seconds')).maximum, 300, 'the real --max-timeout');
    // session_id is a plain string marked for its Mcp-Param-Session header (SEP-2243), on every tool that takes it:
    // the mark is valid only on a plain string, integer or boolean, so the optional one is not anyOf [string, null]
    // ("" means none; null is still accepted, below).
    for (const tool of tools) {
      const sessionId = (tool.inputSchema.properties as Record<string, any> | undefined)?.session_id;
      if (!sessionId) continue;
      assert.equal(sessionId.type, 'string', `${tool.name}.session_id`);
      assert.equal(sessionId['x-mcp-header'], 'Session', `${tool.name}.session_id`);
    }
    assert.ok(!(byName.get('execute_code')!.inputSchema.required ?? []).includes('session_id'));
    assert.ok((byName.get('read_file')!.inputSchema.required ?? []).includes('session_id'));
  });

  it('null optional parameters are read as absent; an unknown parameter is refused and changes nothing', async () => {
    const first = await h.call('execute_code', { code: 'x = 41', session_id: null, timeout_seconds: null });
    assert.equal(first.isError, undefined, textOf(first));
    const { session_id } = first.structuredContent as { session_id: string };
    assert.match(textOf(first), new RegExp(`^new session ${session_id} started; pass session_id to keep state\n`));
    const next = await h.call('execute_code', { code: 'x + 1', session_id, timeout_seconds: null });
    assert.equal((next.structuredContent as { result: string }).result, '42');
    assert.doesNotMatch(textOf(next), /new session/);

    await h.ok('write_file', { session_id, path: 'a.txt', content: 'hi', encoding: null, append: null, overwrite: null });
    const page = await h.ok('read_file', { session_id, path: 'a.txt', encoding: null, offset: null, length: null });
    assert.equal(page.content, 'hi');
    const listing = await h.ok('list_files', { session_id, path: null, recursive: null });
    assert.deepEqual(
      listing.entries.map((e: { path: string }) => e.path),
      ['a.txt'],
    );
    assert.equal((await h.ok('list_packages', { session_id: null })).session_id, null);
    assert.equal((await h.ok('list_packages', { session_id: '' })).session_id, null);
    // "" is the schema's way to say "no session" (session_id is a plain string): a new one, like null or omitted.
    const fresh = await h.ok('execute_code', { code: 'x', session_id: '' });
    assert.notEqual(fresh.session_id, session_id);
    assert.match(fresh.error.type, /NameError/);

    const typo = await h.call('execute_code', { session_id, code: 'x = 0', sessionid: session_id });
    assert.equal(typo.isError, true);
    assert.match(textOf(typo), /sessionid/);
    assert.equal((await h.ok('execute_code', { session_id, code: 'x' })).result, '41', 'the refused call ran nothing');
  });

  it('a reply has no resource_link block by default: the text names the files', async () => {
    const result = await h.call('execute_code', { code: `open("out.txt", "w").write("data")\n${PNG_CELL}` });
    assert.deepEqual(
      result.content.map((block) => block.type),
      ['text', 'image'],
    );
    assert.match(textOf(result), /files: .*out\.txt \(text\/plain, 4 bytes\)/);
    assert.match(textOf(result), /figures\/cell1_1\.png/);
  });
});

describe('--resource-links and --no-structured-content', () => {
  let links: Harness;
  let textOnly: Harness;
  before(async () => {
    [links, textOnly] = await Promise.all([
      startServer(['--warm-sessions', '0', '--resource-links']),
      startServer(['--warm-sessions', '0'], { PYODIDE_MCP_NO_STRUCTURED_CONTENT: 'true' }),
    ]);
  });
  after(() => Promise.all([links.close(), textOnly.close()]));

  it('--resource-links adds a link block per file', async () => {
    const result = await links.call('execute_code', { code: 'open("out.txt", "w").write("data")' });
    const { session_id } = result.structuredContent as { session_id: string };
    const link = result.content.find((block) => block.type === 'resource_link');
    assert.equal(link?.uri, `session://${session_id}/out.txt`);
  });

  it('without structured content the text carries the reply and images still come as image blocks', async () => {
    const { tools } = await textOnly.client.listTools();
    assert.deepEqual(
      tools.filter((tool) => tool.outputSchema).map((tool) => tool.name),
      [],
    );
    const created = await textOnly.call('create_session');
    assert.equal(created.structuredContent, undefined);
    const { session_id } = JSON.parse(textOf(created)) as { session_id: string };
    await textOnly.call('execute_code', { session_id, code: 'x = 41' });
    const result = await textOnly.call('execute_code', { session_id, code: `${PNG_CELL}\nx + 1` });
    assert.equal(result.structuredContent, undefined);
    assert.match(textOf(result), /result: 42/);
    assert.deepEqual(
      result.content.map((block) => block.type),
      ['text', 'image'],
    );
    const info = JSON.parse(textOf(await textOnly.call('server_info'))) as { distribution: string };
    assert.equal(info.distribution, 'modern');
  });
});

describe('right after start', () => {
  let h: Harness;
  before(async () => {
    // The default scientific preload: the legacy runtime, whose sessions take seconds to boot.
    h = await startServer(['--warm-sessions', '2'], { PYODIDE_MCP_PRELOAD: 'numpy,pandas,matplotlib,sympy' });
  });
  after(() => h.close());

  it('server_info answers before any session has booted, with the facts a booted session reports', async () => {
    const info = await h.ok('server_info');
    assert.equal(info.warm_sessions, 0, 'answered before the first warm session was ready');
    assert.equal(info.distribution, 'legacy');
    const created = await h.ok('create_session');
    assert.equal(info.python, created.runtime.python);
    assert.equal(info.pyodide, created.runtime.pyodide);
    assert.deepEqual(info.packages, created.packages);
  });

  it('the log has one line per boot: no package loading chatter, nothing about the pool at exit', async () => {
    await h.close();
    const log = h.stderr();
    assert.match(log, /session booted in \d+ ms/);
    assert.doesNotMatch(log, /Loading numpy|Python initialization complete|failed to boot/);
    assert.doesNotMatch(log, /Pyodide 0\.17\.0/, 'the log names no other version than server_info');
  });
});
