/**
 * The namespace tools over real stdio (modern runtime, nothing preloaded): list_variables, inspect_variable,
 * call_function, remove_variables, reset_session; bad input and code-injection attempts through `name`; a
 * hostile __repr__ bounded by the time limit; answers for one session while another is busy.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, textOf, type Harness } from '../helpers.js';
import { assertResetRestoresBuiltins } from './reset-builtins.js';

describe('namespace tools', () => {
  let h: Harness;
  let s: string;
  before(async () => {
    h = await startServer(['--timeout', '3']);
    s = (await h.ok('create_session')).session_id;
    await h.ok('execute_code', {
      session_id: s,
      code: [
        'import math',
        'x = 41',
        '_hidden = 1',
        'words = ["a" * 500] * 100',
        'def add(a: int, b: int = 1) -> int:',
        '    """Adds two numbers.',
        '',
        '    Returns their sum."""',
        '    print("adding", a, b)',
        '    return a + b',
        'class Point:',
        '    """A point."""',
        '    def __init__(self, x=0, y=0):',
        '        self.x, self.y = x, y',
        'p = Point(3, 4)',
      ].join('\n'),
    });
  });
  after(() => h.close());

  it('list_variables: names, types, kinds and short reprs; private names hidden', async () => {
    const listing = await h.ok('list_variables', { session_id: s });
    const byName = Object.fromEntries(listing.variables.map((v: { name: string }) => [v.name, v]));
    assert.deepEqual(Object.keys(byName).sort(), ['Point', 'add', 'math', 'p', 'words', 'x']);
    assert.deepEqual(byName.x, { name: 'x', type: 'int', kind: 'variable', repr: '41', shape: null, dtype: null, size_bytes: null });
    assert.equal(byName.add.kind, 'function');
    assert.equal(byName.Point.kind, 'class');
    assert.equal(byName.math.kind, 'module');
    assert.ok(byName.words.repr.length <= 200, 'short repr');
    assert.equal(listing.total, 6);
    const filtered = await h.ok('list_variables', { session_id: s, filter: 'AD' });
    assert.deepEqual(
      filtered.variables.map((v: { name: string }) => v.name),
      ['add'],
    );
    const glob = await h.ok('list_variables', { session_id: s, filter: '[px]' });
    assert.deepEqual(
      glob.variables.map((v: { name: string }) => v.name),
      ['p', 'x'],
    );
    // null reads as absent
    assert.equal((await h.ok('list_variables', { session_id: s, filter: null })).total, 6);
  });

  it('inspect_variable: signature, parameters, docstring and source of a function', async () => {
    const add = await h.ok('inspect_variable', { session_id: s, name: 'add' });
    assert.equal(add.kind, 'function');
    assert.equal(add.signature, '(a: int, b: int = 1) -> int');
    assert.equal(add.doc, 'Adds two numbers.\n\nReturns their sum.');
    assert.match(add.source, /^def add\(a: int, b: int = 1\) -> int:/);
    assert.deepEqual(add.parameters, [
      { name: 'a', kind: 'POSITIONAL_OR_KEYWORD', annotation: 'int', default: null, required: true },
      { name: 'b', kind: 'POSITIONAL_OR_KEYWORD', annotation: 'int', default: '1', required: false },
    ]);
  });

  it('inspect_variable: dotted paths resolve attributes, builtins resolve too', async () => {
    const pi = await h.ok('inspect_variable', { session_id: s, name: 'math.pi' });
    assert.equal(pi.type, 'float');
    assert.match(pi.repr, /^3\.14159/);
    assert.equal(pi.doc, null, 'no class docstring for a plain value');
    const px = await h.ok('inspect_variable', { session_id: s, name: 'p.x' });
    assert.equal(px.repr, '3');
    const words = await h.ok('inspect_variable', { session_id: s, name: 'words', detail: true });
    assert.equal(words.length, 100);
    assert.ok(words.attributes.includes('append'));
    assert.equal((await h.ok('inspect_variable', { session_id: s, name: 'len' })).kind, 'function');
  });

  it('inspect_variable: unknown names say what exists; expressions are refused before reaching Python', async () => {
    let r = await h.call('inspect_variable', { session_id: s, name: 'ad' });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /^NAME_NOT_FOUND: 'ad' is not defined .*did you mean add/);
    r = await h.call('inspect_variable', { session_id: s, name: 'p.z' });
    assert.match(textOf(r), /^NAME_NOT_FOUND: p has no attribute 'z'/);
    for (const name of ["__import__('os').system('x')", 'a; b', 'x[0]', 'x + 1', 'p.', '.x', '', 'x y', 'os\nimport os']) {
      r = await h.call('inspect_variable', { session_id: s, name });
      assert.equal(r.isError, true, name);
      assert.match(textOf(r), /^INVALID_INPUT: name .* is not a name or a dotted path of names/, name);
    }
    // Nothing ran: the namespace is as it was.
    assert.equal((await h.ok('list_variables', { session_id: s })).total, 6);
  });

  it('call_function: JSON arguments, same reply as execute_code', async () => {
    const r = await h.ok('call_function', { session_id: s, name: 'add', args: [2], kwargs: [{ name: 'b', value: 5 }] });
    assert.equal(r.success, true);
    assert.equal(r.result, '7');
    assert.equal(r.stdout, 'adding 2 5\n');
    assert.ok(r.execution_count >= 2);
    const made = await h.ok('call_function', { session_id: s, name: 'Point', kwargs: [{ name: 'x', value: 1 }] });
    assert.match(made.result, /Point object/);
    const joined = await h.ok('call_function', { session_id: s, name: 'math.hypot', args: [3, 4] });
    assert.equal(joined.result, '5.0');
    // Lists and objects arrive as Python lists and dicts.
    const len = await h.ok('call_function', { session_id: s, name: 'len', args: [{ a: [1, 2], b: null }] });
    assert.equal(len.result, '2');
  });

  it('call_function: unknown, not callable, bad arguments and injection attempts', async () => {
    let r = await h.ok('call_function', { session_id: s, name: 'nope' });
    assert.equal(r.success, false);
    assert.equal(r.error.type, 'NameError');
    assert.match(r.error.message, /'nope' is not defined/);
    r = await h.ok('call_function', { session_id: s, name: 'x' });
    assert.equal(r.error.type, 'TypeError');
    assert.match(r.error.message, /x is not callable \(it is a int\)/);
    r = await h.ok('call_function', { session_id: s, name: 'add', args: ['a', 'b', 'c'] });
    assert.equal(r.error.type, 'TypeError');
    let bad = await h.call('call_function', { session_id: s, name: 'add', args: '1, 2' });
    assert.equal(bad.isError, true, 'args must be a JSON array');
    bad = await h.call('call_function', { session_id: s, name: 'add', kwargs: [{ name: 'a=1; import os', value: 1 }] });
    assert.match(textOf(bad), /^INVALID_INPUT: keyword argument .* is not a Python identifier/);
    bad = await h.call('call_function', { session_id: s, name: "exec('x=0')" });
    assert.match(textOf(bad), /^INVALID_INPUT/);
    assert.equal((await h.ok('execute_code', { session_id: s, code: 'x' })).result, '41');
  });

  it('remove_variables deletes names and says which were not there', async () => {
    await h.ok('execute_code', { session_id: s, code: 'tmp1 = 1\ntmp2 = 2' });
    const r = await h.ok('remove_variables', { session_id: s, names: ['tmp1', 'tmp2', 'never'] });
    assert.deepEqual(r.removed, ['tmp1', 'tmp2']);
    assert.deepEqual(r.not_found, ['never']);
    let bad = await h.call('remove_variables', { session_id: s, names: ['p.x'] });
    assert.match(textOf(bad), /^INVALID_INPUT: name "p.x" is not a Python identifier/);
    bad = await h.call('remove_variables', { session_id: s, names: ['__builtins__'] });
    assert.match(textOf(bad), /^INVALID_INPUT: __builtins__ belongs to the interpreter/);
    assert.equal((await h.ok('execute_code', { session_id: s, code: 'len([1])' })).result, '1', 'builtins intact');
  });

  it('a __repr__ that never returns is interrupted at the time limit; the session survives', async () => {
    const t = (await h.ok('create_session')).session_id;
    await h.ok('execute_code', {
      session_id: t,
      code: 'class Loop:\n    def __repr__(self):\n        while True: pass\nloop = Loop()\nkept = 5',
    });
    const started = Date.now();
    const r = await h.call('list_variables', { session_id: t });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /^EXEC_TIMEOUT: list_variables exceeded the 3 s time limit .* The session and its variables are intact/);
    assert.ok(Date.now() - started < 8000);
    assert.equal((await h.ok('execute_code', { session_id: t, code: 'kept' })).result, '5');
    await h.ok('close_session', { session_id: t });
  });

  it('answers for one session while another one is busy', async () => {
    const busy = (await h.ok('create_session')).session_id;
    const running = h.ok('execute_code', { session_id: busy, code: 'import time\nend = time.time() + 2\nwhile time.time() < end: pass' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    await h.ok('list_variables', { session_id: s });
    await h.ok('inspect_variable', { session_id: s, name: 'add' });
    assert.ok(Date.now() - started < 1500, `took ${Date.now() - started} ms`);
    await running;
    await h.ok('close_session', { session_id: busy });
  });

  it('reset_session: a fresh namespace and cell count, same id, files kept unless asked', async () => {
    const t = (await h.ok('execute_code', { code: 'y = 1\nopen("keep.txt", "w").write("k")' })).session_id;
    const r = await h.ok('reset_session', { session_id: t });
    assert.equal(r.reset, true);
    assert.equal(r.removed, 1);
    assert.equal(r.files_deleted, 0);
    assert.equal((await h.ok('list_variables', { session_id: t })).total, 0);
    const after = await h.ok('execute_code', { session_id: t, code: 'open("keep.txt").read()' });
    assert.equal(after.result, "'k'");
    assert.equal(after.execution_count, 1);
    const fail = await h.ok('execute_code', { session_id: t, code: 'y' });
    assert.equal(fail.error.type, 'NameError');
    const cleared = await h.ok('reset_session', { session_id: t, clear_files: true });
    assert.equal(cleared.files_deleted, 1);
    assert.deepEqual((await h.ok('list_files', { session_id: t })).entries, []);
    assert.equal((await h.ok('execute_code', { session_id: t, code: 'import os\nos.getcwd()' })).result, "'/workspace'");
    await h.ok('close_session', { session_id: t });
  });

  it('reset_session restores builtins as a fresh session has them: a print hook and a planted name go', async () => {
    await assertResetRestoresBuiltins(h);
  });

  it('unknown sessions get the usual error', async () => {
    const r = await h.call('list_variables', { session_id: 'nope' });
    assert.match(textOf(r), /^SESSION_NOT_FOUND/);
  });
});
