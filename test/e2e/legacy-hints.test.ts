/**
 * The legacy runtime explains itself, over the real server: version gaps patched (matplotlib `layout=`, pandas
 * boxplot by=), errors of newer-Python code carry one line naming the versions and how to get the modern runtime,
 * packages' own SyntaxWarnings and the boot-time lzma warning are not shown.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, textOf, type Harness } from '../helpers.js';

describe('legacy runtime that explains itself', () => {
  let h: Harness;
  let session_id: string;
  before(async () => {
    h = await startServer(['--runtime', 'legacy'], { PYODIDE_MCP_PRELOAD: 'numpy,pandas,matplotlib' });
    session_id = (await h.ok('create_session')).session_id;
  });
  after(() => h.close());

  const run = (code: string) => h.ok('execute_code', { session_id, code });
  const HINT =
    /\nHint: this server runs the legacy runtime, Python 3\.8\.\d+ \(Pyodide 0\.17\.1\) with numpy 1\.17\.5, pandas 1\.0\.5, matplotlib 3\.3\.3; (.+)\. For Python 3\.14 and current packages, run `npx pyodide-mcp fetch-wheels` once and restart the server\.$/;

  it('newer syntax, operators, methods and keywords get one line naming the versions and the way to the modern runtime', async () => {
    const cases: [string, string, RegExp][] = [
      ['match 1:\n    case 1:\n        pass', 'SyntaxError', /match\/case needs Python 3\.10/],
      ["{'a': 1} | {'b': 2}", 'TypeError', /`\|` on dicts/],
      ['int | None', 'TypeError', /`\|` on dicts \(3\.9\) and on types/],
      ["'v1.2'.removeprefix('v')", 'AttributeError', /this method needs a newer Python/],
      ['import numpy as np\nnp.zeros(3).sum(foo=1)', 'TypeError', /this keyword may belong to a newer version/],
      ['import tomllib', 'ModuleNotFoundError', /tomllib module needs a newer Python/],
    ];
    for (const [code, type, why] of cases) {
      const r = await run(code);
      assert.equal(r.error?.type, type, code);
      const hint = HINT.exec(r.error.message);
      assert.ok(hint, `${code}: ${r.error.message}`);
      assert.match(hint[1]!, why);
      assert.equal(r.error.message.split('\n').length, 2, 'exactly one extra line');
      assert.match(textOf(await h.call('execute_code', { session_id, code })), /Hint: this server runs the legacy runtime/);
    }
  });

  it('ordinary mistakes get no hint', async () => {
    for (const code of ['1 / 0', 'undefined_name', 'def f(:\n    pass', "{'a': 1} + 1"]) {
      const r = await run(code);
      assert.equal(r.success, false);
      assert.doesNotMatch(r.error.message, /Hint:/, code);
    }
  });

  it("matplotlib's layout='constrained' and pandas boxplot by= work on matplotlib 3.3 / pandas 1.0.5", async () => {
    const r = await run(
      'import matplotlib.pyplot as plt, pandas as pd, numpy as np\n' +
        "fig, ax = plt.subplots(layout='constrained')\n" +
        "tight = plt.figure(layout='tight')\n" +
        "df = pd.DataFrame({'a': np.arange(12), 'b': np.arange(12) * 2.0, 'g': list('xyz') * 4})\n" +
        "axes = df.boxplot(by='g')\n" +
        '(fig.get_constrained_layout(), tight.get_tight_layout(), [t.get_text() for t in axes[0].get_xticklabels()][:3])',
    );
    assert.equal(r.success, true, JSON.stringify(r.error));
    assert.equal(r.result, "(True, True, ['x', 'y', 'z'])");
    assert.ok(r.display.length >= 2, 'the figures are captured');
    const bad = await run("plt.figure(layout='bogus')");
    assert.equal(bad.error?.type, 'ValueError');
  });

  it("packages' own SyntaxWarnings are not shown, the user's are; the lzma warning is gone from the log", async () => {
    const r = await run('import scipy.linalg, scipy.stats\nscipy.linalg.__name__');
    assert.equal(r.success, true, JSON.stringify(r.error));
    assert.doesNotMatch(r.stderr, /SyntaxWarning/);
    const own = await run("x = 'a'\nexec(compile(\"x is 'a'\", 'mine.py', 'exec'))");
    assert.match(own.stderr, /SyntaxWarning/);
    const user = await run('import pandas, importlib\nimportlib.reload(pandas.compat).__name__');
    assert.doesNotMatch(user.stderr, /lzma/);
    assert.doesNotMatch(h.stderr(), /lzma/);
  });
});
