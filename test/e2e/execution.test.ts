/** execute_code semantics over real stdio: state, isolation, results, streams, errors, truncation. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, textOf, type Harness } from '../helpers.js';

describe('execute_code', () => {
  let h: Harness;
  let a: string;
  let b: string;
  before(async () => {
    h = await startServer(['--max-result-chars', '1000']);
    [a, b] = await Promise.all([h.ok('create_session'), h.ok('create_session')]).then((r) => r.map((s) => s.session_id));
  });
  after(() => h.close());

  const run = (session_id: string, code: string) => h.ok('execute_code', { session_id, code });

  it('create_session reports an unguessable id, expiry and runtime', async () => {
    assert.match(a, /^[A-Za-z0-9_-]{22,}$/, 'URL-safe id of at least 128 bits');
    assert.notEqual(a, b);
    const created = await h.ok('create_session');
    assert.ok(Date.parse(created.expires_at) > Date.now());
    assert.match(created.runtime.python, /^3\.\d+\.\d+$/);
    assert.ok(created.runtime.pyodide);
    await h.ok('close_session', { session_id: created.session_id });
  });

  it('a new session starts with an empty namespace in /workspace', async () => {
    const fresh = await h.ok('execute_code', { code: 'import os\n(sorted(k for k in globals() if not k.startswith("__")), os.getcwd())' });
    // `_pyodide_core` is Pyodide's own; nothing of ours is left in the user's namespace.
    assert.equal(fresh.result, "(['_pyodide_core', 'os'], '/workspace')");
    await h.ok('close_session', { session_id: fresh.session_id });
  });

  it('keeps variables, functions, classes, imports and files across calls', async () => {
    await run(a, 'import math\nx = 40\ndef f(v):\n    return v + 2\nclass C:\n    k = 7\nopen("note.txt", "w").write("kept")');
    const r = await run(a, 'f(x), C.k, math.pi > 3, open("note.txt").read()');
    assert.equal(r.result, "(42, 7, True, 'kept')");
  });

  it('never leaks state between sessions', async () => {
    await run(a, 'secret = "only-in-a"');
    const r = await run(b, 'secret');
    assert.equal(r.success, false);
    assert.equal(r.error.type, 'NameError');
    const files = await run(b, 'import os; os.path.exists("note.txt")');
    assert.equal(files.result, 'False');
  });

  it('returns the repr of the last expression, or null', async () => {
    assert.equal((await run(a, '1 + 1')).result, '2');
    assert.equal((await run(a, '"text"')).result, "'text'");
    assert.equal((await run(a, 'y = 3')).result, null);
    assert.equal((await run(a, 'None')).result, null);
    assert.equal((await run(a, 'for i in range(3):\n    pass')).result, null);
    assert.equal((await run(a, '_')).result, "'text'", '_ holds the last result, as in a notebook');
  });

  it('keeps stdout and stderr separate and in order', async () => {
    const r = await run(a, 'import sys\nprint(5); print(5)\nprint("e1", file=sys.stderr)\nprint("x", end="")\nsys.stderr.write("e2")');
    assert.equal(r.stdout, '5\n5\nx');
    assert.equal(r.stderr, 'e1\ne2');
    assert.equal(r.success, true);
  });

  it('a carriage return redraws its line, as in a terminal and Jupyter: a progress bar keeps its last state, past the output limit too', async () => {
    const { session_id } = await h.ok('execute_code', { code: 'print("a", end="\\r"); print("b")' });
    const cases: [string, string][] = [
      ['print("a", end="\\r"); print("b")', 'b\n'],
      ['import sys\nsys.stdout.write("x\\r\\ny\\n")', 'x\ny\n'],
      ['print("kept\\r")', 'kept\n'],
      // 50,000 redraws of about 15 characters: far past the stdout limit, whose cut would have lost the last state.
      ['print("start")\nfor i in range(50000):\n    print("\\rprogress", i, end="")\nprint(" end")', 'start\nprogress 49999 end\n'],
    ];
    for (const [code, stdout] of cases) {
      const r = await h.ok('execute_code', { session_id, code });
      assert.equal(r.stdout, stdout, code);
      assert.equal(r.truncated, null, code);
    }
    const err = await h.ok('execute_code', { session_id, code: 'import sys\nsys.stderr.write("10%\\r100%\\n")' });
    assert.equal(err.stderr, '100%\n');
  });

  it('reports exceptions with a traceback trimmed to user frames', async () => {
    const r = await run(a, 'def inner():\n    raise ValueError("bad value")\ninner()');
    assert.equal(r.success, false);
    assert.equal(r.error.type, 'ValueError');
    assert.equal(r.error.message, 'bad value');
    assert.match(r.error.traceback, /File "<cell-\d+>", line 3/);
    assert.match(r.error.traceback, /line 2, in inner/);
    assert.doesNotMatch(r.error.traceback, /harness/, 'no harness frames');
    const syntax = await run(a, 'def broken(:\n  pass');
    assert.equal(syntax.error.type, 'SyntaxError');
  });

  it('output printed before an exception is kept', async () => {
    const r = await run(a, 'print("before")\n1/0');
    assert.equal(r.stdout, 'before\n');
    assert.equal(r.error.type, 'ZeroDivisionError');
  });

  it('caps stdout and the result repr, and says how much was left out', async () => {
    const r = await run(a, 'print("y" * 50000)\n"z" * 5000');
    assert.equal(r.stdout.length, 20000);
    assert.equal(r.truncated.stdout, 50001 - 20000);
    assert.equal(r.result.length, 1000);
    assert.equal(r.truncated.result, 5002 - 1000);
    const clean = await run(a, '1');
    assert.equal(clean.truncated, null);
  });

  it('counts executions and returns a readable text block too', async () => {
    const result = await h.call('execute_code', { session_id: b, code: 'print("hi")\n6*7' });
    const text = textOf(result);
    assert.match(text, /stdout:\nhi/);
    assert.match(text, /result: 42/);
    const listed = await h.ok('list_sessions');
    const entry = listed.sessions.find((s: { session_id: string }) => s.session_id === b);
    assert.ok(entry.execution_count >= 3);
    assert.equal(entry.busy, false);
  });

  it('an empty or missing session_id starts a new session and reports its id', async () => {
    const r = await h.ok('execute_code', { code: 'fresh = 1\nfresh', session_id: '' });
    assert.equal(r.result, '1');
    assert.notEqual(r.session_id, a);
    const again = await run(r.session_id, 'fresh + 1');
    assert.equal(again.result, '2');
    await h.ok('close_session', { session_id: r.session_id });
  });
});
