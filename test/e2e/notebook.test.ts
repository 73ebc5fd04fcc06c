/**
 * export_notebook (validated against the nbformat 4.5 schema), register_tool / unregister_tool with
 * notifications/tools/list_changed, and the --profile / --tools flags, over real stdio. The last suite runs the legacy
 * runtime (Python 3.8) with numpy, pandas and matplotlib: figures in the notebook, DataFrames and arrays inspected.
 */
import { Ajv } from 'ajv';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';

import { CLI, startServer, textOf, type Harness } from '../helpers.js';
import { NBFORMAT_V4_5_SCHEMA } from './nbformat-schema.js';
import { assertResetRestoresBuiltins } from './reset-builtins.js';

const validate = new Ajv({ allErrors: true, strict: false }).compile(NBFORMAT_V4_5_SCHEMA);

async function exported(h: Harness, session_id: string, path = 'notebook.ipynb') {
  const file = await h.ok('read_file', { session_id, path });
  const notebook = JSON.parse(file.content);
  assert.ok(validate(notebook), JSON.stringify(validate.errors, null, 1));
  return notebook;
}

describe('export_notebook', () => {
  let h: Harness;
  before(async () => {
    h = await startServer(['--max-history-cells', '4']);
  });
  after(() => h.close());

  it('writes every cell in order with streams, results and errors, valid nbformat 4.5', async () => {
    const s = (await h.ok('execute_code', { code: 'x = 41\nprint("hello")\nx' })).session_id;
    await h.ok('execute_code', { session_id: s, code: 'import sys\nprint("warn", file=sys.stderr)\n1/0' });
    await h.ok('execute_code', { session_id: s, code: 'def f(a, b=2):\n    return a * b' });
    await h.ok('call_function', { session_id: s, name: 'f', args: [3], kwargs: [{ name: 'b', value: 'x' }] });
    const reply = await h.ok('export_notebook', { session_id: s });
    assert.equal(reply.cells, 4);
    assert.equal(reply.dropped_cells, 0);
    assert.equal(reply.file.path, 'notebook.ipynb');
    assert.equal(reply.file.uri, `session://${s}/notebook.ipynb`);
    const nb = await exported(h, s);
    assert.equal(nb.nbformat, 4);
    assert.deepEqual(
      nb.cells.map((c: { source: string[] }) => c.source.join('')),
      ['x = 41\nprint("hello")\nx', 'import sys\nprint("warn", file=sys.stderr)\n1/0', 'def f(a, b=2):\n    return a * b', 'f(3, b="x")'],
    );
    const [first, second, , fourth] = nb.cells;
    assert.deepEqual(first.outputs, [
      { output_type: 'stream', name: 'stdout', text: ['hello\n'] },
      { output_type: 'execute_result', execution_count: 1, data: { 'text/plain': ['41'] }, metadata: {} },
    ]);
    assert.equal(first.execution_count, 1);
    assert.deepEqual(second.outputs[0], { output_type: 'stream', name: 'stderr', text: ['warn\n'] });
    assert.equal(second.outputs[1].output_type, 'error');
    assert.equal(second.outputs[1].ename, 'ZeroDivisionError');
    assert.ok(second.outputs[1].traceback.some((line: string) => line.includes('1/0')));
    assert.deepEqual(fourth.outputs[0].data, { 'text/plain': ["'xxx'"] });
    // Exporting again needs overwrite, like write_file.
    const again = await h.call('export_notebook', { session_id: s });
    assert.match(textOf(again), /^FILE_EXISTS/);
    await h.ok('export_notebook', { session_id: s, overwrite: true });
    const other = await h.ok('export_notebook', { session_id: s, path: 'out/run.ipynb' });
    assert.equal(other.file.path, 'out/run.ipynb');
    assert.match(textOf(await h.call('export_notebook', { session_id: s, path: '../escape.ipynb' })), /^PATH_DENIED/);
  });

  it('keeps the last --max-history-cells cells and says how many were dropped', async () => {
    const s = (await h.ok('create_session')).session_id;
    for (let i = 1; i <= 6; i++) await h.ok('execute_code', { session_id: s, code: `v = ${i}\nv` });
    const reply = await h.ok('export_notebook', { session_id: s });
    assert.equal(reply.cells, 4);
    assert.equal(reply.dropped_cells, 2);
    const nb = await exported(h, s);
    assert.equal(nb.cells[0].cell_type, 'markdown');
    assert.match(nb.cells[0].source.join(''), /2 earlier cell\(s\) are not included/);
    assert.deepEqual(
      nb.cells.slice(1).map((c: { execution_count: number }) => c.execution_count),
      [3, 4, 5, 6],
    );
    assert.equal(nb.metadata.pyodide_mcp.dropped_cells, 2);
  });
});

describe('register_tool', () => {
  let h: Harness;
  let s: string;
  let changes = 0;
  const waiting: (() => void)[] = [];
  const nextChange = () => new Promise<void>((resolve) => waiting.push(resolve));
  before(async () => {
    h = await startServer();
    h.client.setNotificationHandler('notifications/tools/list_changed', () => {
      changes++;
      for (const resolve of waiting.splice(0)) resolve();
    });
    s = (
      await h.ok('execute_code', {
        code:
          'def area(width: float, height: float = 1.0, label: str = "box", *, tags: list = None) -> str:\n' +
          '    """Area of a rectangle.\n\n    More text."""\n    print("computing")\n    return f"{label}: {width * height}"\n' +
          'count = 3',
      })
    ).session_id;
  });
  after(() => h.close());

  it('publishes a function with a schema from its signature; list_changed is sent and the tool is callable', async () => {
    assert.deepEqual(h.client.getServerCapabilities()?.tools, { listChanged: true });
    const changed = nextChange();
    const reply = await h.ok('register_tool', { session_id: s, function: 'area' });
    assert.deepEqual(reply.parameters, ['width', 'height', 'label', 'tags']);
    assert.equal(reply.description, 'Area of a rectangle.');
    await changed;
    const { tools } = await h.client.listTools();
    const area = tools.find((t) => t.name === 'area');
    assert.ok(area, 'the new tool is listed');
    assert.match(area.description!, /^Area of a rectangle\./);
    assert.deepEqual(area.inputSchema.required, ['width']);
    assert.equal((area.inputSchema.properties as Record<string, { type?: string }>).width!.type, 'number');
    const result = await h.ok('area', { width: 2, height: 3, label: 'room' });
    assert.equal(result.result, "'room: 6'");
    assert.equal(result.stdout, 'computing\n');
    const invalid = await h.call('area', { width: 'wide' });
    assert.equal(invalid.isError, true, 'arguments are checked against the schema');
  });

  it('refuses shadowing, bad names and things that are not callable', async () => {
    assert.match(
      textOf(await h.call('register_tool', { session_id: s, function: 'area', name: 'execute_code' })),
      /^INVALID_INPUT: execute_code is a built-in tool/,
    );
    assert.match(
      textOf(await h.call('register_tool', { session_id: s, function: 'area', name: 'a b' })),
      /^INVALID_INPUT: Tool name "a b" is not allowed/,
    );
    assert.match(textOf(await h.call('register_tool', { session_id: s, function: 'count' })), /^NOT_CALLABLE: count is not callable/);
    assert.match(textOf(await h.call('register_tool', { session_id: s, function: 'nope' })), /^NAME_NOT_FOUND/);
    assert.match(textOf(await h.call('register_tool', { session_id: s, function: 'area()' })), /^INVALID_INPUT/);
    assert.match(textOf(await h.call('unregister_tool', { name: 'execute_code' })), /^INVALID_INPUT: execute_code is a built-in tool/);
    assert.match(
      textOf(await h.call('unregister_tool', { name: 'nothing' })),
      /^TOOL_NOT_FOUND: No registered tool is named "nothing"\. Registered: area/,
    );
  });

  it('compares names ignoring case, - versus _ and repeated _, against built-ins and registered tools, naming the clash', async () => {
    for (const name of ['Execute_Code', 'execute-code', 'execute__code', 'EXECUTE--CODE']) {
      assert.match(
        textOf(await h.call('register_tool', { session_id: s, function: 'area', name })),
        new RegExp(`^INVALID_INPUT: ${name} reads as execute_code, which is a built-in tool of this server`),
      );
    }
    await h.ok('register_tool', { session_id: s, function: 'area', name: 'room_area' });
    const other = (await h.ok('create_session')).session_id;
    await h.ok('execute_code', { session_id: other, code: 'def f(x):\n    return x' });
    assert.match(
      textOf(await h.call('register_tool', { session_id: other, function: 'f', name: 'Room-Area' })),
      /^INVALID_INPUT: Room-Area reads as the registered tool room_area .*; pass another name\.$/,
    );
    assert.match(
      textOf(await h.call('register_tool', { session_id: s, function: 'area', name: 'room__area' })),
      /^INVALID_INPUT: room__area reads as the registered tool room_area .*, or unregister_tool room_area first\.$/,
    );
    await h.ok('register_tool', { session_id: s, function: 'area', name: 'room_area' }); // the same name: replaced
    await h.ok('unregister_tool', { name: 'room_area' });
    await h.ok('close_session', { session_id: other });
  });

  it('calls a function whose parameters are named like Object.prototype members', async () => {
    await h.ok('execute_code', {
      session_id: s,
      code: 'def proto(constructor: int, toString: int = 1, hasOwnProperty: str = "h", valueOf=None):\n    return [constructor, toString, hasOwnProperty, valueOf]',
    });
    await h.ok('register_tool', { session_id: s, function: 'proto' });
    assert.equal((await h.ok('proto', { constructor: 5 })).result, "[5, 1, 'h', None]");
    assert.equal((await h.ok('proto', { constructor: 5, toString: 6, hasOwnProperty: 'x', valueOf: 8 })).result, "[5, 6, 'x', 8]");
    assert.equal((await h.call('proto', {})).isError, true, 'a required one left out is still refused');
    const viaCall = await h.ok('call_function', {
      session_id: s,
      name: 'proto',
      kwargs: [
        { name: 'constructor', value: 1 },
        { name: 'hasOwnProperty', value: 'y' },
      ],
    });
    assert.equal(viaCall.result, "[1, 1, 'y', None]");
    await h.ok('unregister_tool', { name: 'proto' });
  });

  it('unregister_tool and closing the session remove tools, with list_changed', async () => {
    await h.ok('register_tool', { session_id: s, function: 'area', name: 'area2', description: 'Custom.' });
    let changed = nextChange();
    await h.ok('unregister_tool', { name: 'area2' });
    await changed;
    let names = (await h.client.listTools()).tools.map((t) => t.name);
    assert.ok(!names.includes('area2') && names.includes('area'));
    changed = nextChange();
    await h.ok('close_session', { session_id: s });
    await changed;
    names = (await h.client.listTools()).tools.map((t) => t.name);
    assert.ok(!names.includes('area'), 'tools of a closed session are gone');
    assert.ok(changes >= 4);
  });
});

describe('tool profiles', () => {
  it('--profile compact exposes seven tools with short descriptions', async () => {
    const h = await startServer(['--profile', 'compact', '--warm-sessions', '0']);
    try {
      const { tools } = await h.client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), [
        'execute_code',
        'inspect_variable',
        'list_files',
        'list_variables',
        'read_file',
        'reset_session',
        'write_file',
      ]);
      for (const tool of tools) assert.ok(tool.description!.length < 120, tool.name);
      assert.equal((await h.ok('execute_code', { code: '6 * 7' })).result, '42');
    } finally {
      await h.close();
    }
  });

  it('--tools is an allow-list; an unknown name is a usage error', async () => {
    const h = await startServer(['--tools', 'execute_code,list_variables', '--warm-sessions', '0']);
    try {
      assert.deepEqual((await h.client.listTools()).tools.map((t) => t.name).sort(), ['execute_code', 'list_variables']);
      // A tool left out is unknown to the server: SDK 2.x answers with the JSON-RPC error the spec gives for an
      // unknown tool (-32602), where 1.x answered with an isError reply.
      await assert.rejects(h.call('read_file', { session_id: 'x', path: 'y' }), (error: Error & { code?: number }) => {
        assert.equal(error.code, -32602);
        assert.match(error.message, /Tool read_file not found/);
        return true;
      });
    } finally {
      await h.close();
    }
    const bad = spawnSync(process.execPath, [CLI, '--tools', 'execute_code,rm_rf', '--warm-sessions', '0'], {
      env: { PATH: process.env.PATH ?? '', PYODIDE_MCP_PRELOAD: 'none' },
      input: '',
      encoding: 'utf8',
    });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /unknown tool "rm_rf"\. Tools: create_session, execute_code/);
  });
});

describe('legacy runtime: figures, DataFrames and arrays', () => {
  let h: Harness;
  let s: string;
  before(async () => {
    h = await startServer([], { PYODIDE_MCP_PRELOAD: 'numpy,pandas,matplotlib' });
    s = (
      await h.ok('execute_code', {
        code:
          'import numpy as np, pandas as pd, matplotlib.pyplot as plt\n' +
          'df = pd.DataFrame({"a": [1, 2, 3], "b": [0.5, 1.5, 2.5]})\narr = np.arange(6.0).reshape(2, 3)\n' +
          'plt.plot([1, 2, 3])\nprint("plotted")',
      })
    ).session_id;
  });
  after(() => h.close());

  it('reset_session restores builtins as a fresh session has them (legacy runtime)', async () => {
    await assertResetRestoresBuiltins(h, (await h.ok('create_session')).session_id);
  });

  it('list_variables and inspect_variable describe data', async () => {
    const listing = await h.ok('list_variables', { session_id: s, filter: 'df' });
    assert.deepEqual(listing.variables[0].shape, [3, 2]);
    assert.equal(listing.variables[0].dtype, 'float64, int64');
    assert.ok(listing.variables[0].size_bytes > 0);
    // Pyodide 0.17 copies every builtin into __main__: none of them is listed as a user variable.
    const all = await h.ok('list_variables', { session_id: s });
    assert.ok(
      !all.variables.some((v: { name: string }) => ['print', 'len', 'ArithmeticError'].includes(v.name)),
      JSON.stringify(all.variables.map((v: { name: string }) => v.name)),
    );
    const df = await h.ok('inspect_variable', { session_id: s, name: 'df' });
    assert.deepEqual(df.columns, [
      { name: 'a', dtype: 'int64' },
      { name: 'b', dtype: 'float64' },
    ]);
    assert.match(df.head, /a\s+b/);
    assert.match(df.describe, /mean/);
    const arr = await h.ok('inspect_variable', { session_id: s, name: 'arr' });
    assert.deepEqual(arr.shape, [2, 3]);
    assert.deepEqual(arr.stats, { min: 0, max: 5, mean: 2.5 });
    const col = await h.ok('inspect_variable', { session_id: s, name: 'df.b' });
    assert.deepEqual(col.stats, { min: 0.5, max: 2.5, mean: 1.5 });
  });

  it('the exported notebook carries the figure as image/png', async () => {
    await h.ok('export_notebook', { session_id: s });
    const nb = await exported(h, s);
    const outputs = nb.cells[0].outputs;
    assert.deepEqual(outputs[0], { output_type: 'stream', name: 'stdout', text: ['plotted\n'] });
    const png = Buffer.from(outputs[1].data['image/png'], 'base64');
    assert.equal(png.subarray(1, 4).toString(), 'PNG');
    assert.equal(nb.metadata.language_info.version.slice(0, 3), '3.8');
  });
});
