/** The offline scientific stack, as a user meets it over stdio (default preload: legacy distribution here). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, textOf, type Harness } from '../helpers.js';

describe('scientific stack, offline', () => {
  let h: Harness;
  let session_id: string;
  let created: Record<string, any>;
  before(async () => {
    h = await startServer([], { PYODIDE_MCP_PRELOAD: 'numpy,pandas,matplotlib,sympy' });
    created = await h.ok('create_session');
    session_id = created.session_id;
  });
  after(() => h.close());

  const run = (code: string) => h.ok('execute_code', { session_id, code });

  it('create_session and server_info report the distribution, versions and why it was chosen', async () => {
    assert.deepEqual(Object.keys(created.packages).sort(), ['matplotlib', 'numpy', 'pandas', 'sympy']);
    const info = await h.ok('server_info');
    assert.equal(info.distribution, created.runtime.distribution);
    assert.equal(info.python, created.runtime.python);
    assert.ok(info.reason.length > 20);
    assert.equal(info.packages.numpy, created.packages.numpy);
  });

  it('imports the stack without installing anything, and computes correct results', async () => {
    const r = await run(
      'import numpy as np, pandas as pd, matplotlib.pyplot as plt, sympy\n' +
        'df = pd.DataFrame({"g": ["a", "b", "a"], "v": [1.5, 2.0, 3.5]})\n' +
        'sums = df.groupby("g")["v"].sum().to_dict()\n' +
        'x = np.linalg.solve(np.array([[3.0, 1.0], [1.0, 2.0]]), np.array([9.0, 8.0]))\n' +
        't = sympy.Symbol("t")\n' +
        'integral = sympy.integrate(t**2, (t, 0, 3))\n' +
        '(sums, [round(float(v), 6) for v in x], str(integral), plt.get_backend())',
    );
    assert.equal(r.success, true, JSON.stringify(r.error));
    assert.equal(r.result, "({'a': 5.0, 'b': 2.0}, [2.0, 3.0], '9', 'module://pyodide_mcp_backend')");
  });

  it('C++ code called through a function pointer works (numpy.fft, scipy), and the session lives on', async () => {
    // Before workers/thread/runtime/linker-patches.ts, the legacy runtime called numpy.fft's pocketfft helpers in their
    // pointer-cast-emulated form and died ("Cannot convert 8 to a BigInt"), ending the session.
    const r = await run(
      'import numpy as np\n' +
        'from scipy import optimize, integrate\n' +
        'spectrum = np.fft.rfft(np.cos(2 * np.pi * 3 * np.arange(64) / 64))\n' +
        'peak = int(np.argmax(np.abs(spectrum)))\n' +
        'back = (np.fft.ifft(np.fft.fft(np.arange(8.0))).real.round(6) + 0.0).tolist()\n' +
        'low = [round(float(v), 4) for v in optimize.minimize(lambda v: (v[0] - 3) ** 2 + (v[1] + 1) ** 2, [0.0, 0.0]).x]\n' +
        '(peak, back, low, round(integrate.quad(np.sin, 0, np.pi)[0], 6))',
    );
    assert.equal(r.success, true, JSON.stringify(r.error));
    assert.equal(r.result, '(3, [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], [3.0, -1.0], 2.0)');
    assert.equal((await run('1 + 1')).result, '2');
  });

  it('matplotlib savefig writes a real PNG in the session filesystem', async () => {
    const r = await run(
      'import matplotlib.pyplot as plt, numpy as np\nxs = np.linspace(0, 10, 100)\nplt.plot(xs, np.sin(xs))\nplt.savefig("sine_wave.png")\n' +
        'data = open("sine_wave.png", "rb").read()\n(data[:8], len(data) > 5000)',
    );
    assert.equal(r.result, "(b'\\x89PNG\\r\\n\\x1a\\n', True)");
  });

  it('pandas .plot() figures are captured like any matplotlib figure', async () => {
    const result = await h.call('execute_code', { session_id, code: 'ax = pd.DataFrame({"y": [1, 3, 2]}).plot(title="from pandas")' });
    const reply = result.structuredContent as any;
    assert.equal(reply.success, true, JSON.stringify(reply.error));
    assert.equal(reply.display.filter((d: any) => d.mime_type === 'image/png').length, 1);
    assert.ok(result.content.some((c) => c.type === 'image'));
  });

  it('an import of an available but unloaded package loads it and says so', async () => {
    const r = await run('import jinja2\njinja2.Template("{{ a }}+{{ b }}").render(a=1, b=2)');
    assert.equal(r.result, "'1+2'");
    assert.ok(
      r.loaded_packages.some((p: string) => p.toLowerCase() === 'jinja2'),
      JSON.stringify(r.loaded_packages),
    );
    const again = await run('import jinja2');
    assert.deepEqual(again.loaded_packages, []);
  });

  it('list_packages and install_packages work offline; unknown names get close matches and change nothing', async () => {
    const listing = await h.ok('list_packages', { session_id });
    assert.ok('numpy' in listing.loaded);
    assert.ok(listing.available.includes('mpmath'));
    const bad = await h.call('install_packages', { session_id, packages: ['sympi'] });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /Not available offline: sympi \(did you mean sympy/);
    const installed = await h.ok('install_packages', { session_id, packages: ['pyparsing', 'Six'] });
    assert.deepEqual(installed.installed, ['pyparsing', 'six']);
    assert.ok('six' in installed.loaded);
    assert.equal((await run('import six; six.PY3')).result, 'True');
  });
});
