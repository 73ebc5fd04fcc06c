/**
 * The same boundary on the LEGACY runtime (Pyodide 0.17.1, Python 3.8; --runtime legacy --preload none):
 * host files, environment, Function constructor / eval, processes, network, memory, and that offline packages
 * still load after lockdown.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  assertPythonError,
  EVAL_REFUSED,
  missingAttribute,
  secretDir,
  startProbeServer,
  type ProbeServer,
  startLoopback,
} from './probe.js';

describe('sandbox: legacy runtime (Pyodide 0.17.1)', () => {
  const ENV_SECRET = `ENV-SECRET-${Date.now()}`;
  const secrets = secretDir();
  let p: ProbeServer;
  let s: string;
  let loopback: Awaited<ReturnType<typeof startLoopback>>;
  before(async () => {
    loopback = await startLoopback();
    p = await startProbeServer(['--runtime', 'legacy', '--preload', 'none'], { SANDBOX_TEST_SECRET: ENV_SECRET });
    s = await p.newSession();
  });
  after(async () => {
    await p.close();
    await loopback.close();
    secrets.dispose();
  });

  it('runs Python 3.8 and legitimate JS interop works', async () => {
    assert.match((await p.run(s, 'import sys\nsys.version')).result!, /^'3\.8\./);
    assert.equal((await p.run(s, 'import js\njs.Math.sqrt(4)')).result, '2');
  });

  it('host files and env: js.process is inert, the secret file and env var never come back', async () => {
    for (const name of ['getBuiltinModule', 'binding', 'dlopen', 'kill', 'exit']) {
      assertPythonError(await p.run(s, `import js\njs.process.${name}`), 'AttributeError', missingAttribute(name));
    }
    assertPythonError(await p.run(s, `open(${JSON.stringify(secrets.file)}).read()`), 'FileNotFoundError', /No such file or directory/);
    for (const name of ['require', 'fetch', 'XMLHttpRequest', 'WebSocket', 'MessagePort', 'loadPyodide']) {
      assertPythonError(await p.run(s, `import js\njs.${name}`), 'AttributeError', missingAttribute(name));
    }
    const env = await p.run(s, 'import os, js\n(dict(os.environ), js.JSON.stringify(js.process.env))');
    assert.ok(!JSON.stringify(env).includes(ENV_SECRET));
    assert.ok(!JSON.stringify(env).includes(secrets.secret));
    await p.assertUnharmed();
  });

  it('Function constructor and eval: EvalError', async () => {
    assertPythonError(await p.run(s, `import js\njs.Object.constructor('return process')()`), 'JsException', EVAL_REFUSED);
    assertPythonError(await p.run(s, `import js\njs.eval('1 + 1')`), 'JsException', EVAL_REFUSED);
    // ...while Pyodide's own callable proxies (made without compiling strings) still work.
    assert.equal(
      (
        await p.run(
          s,
          'import js\nfrom pyodide import create_proxy\nf = create_proxy(lambda x, *rest: x * 2)\njs.Array.of(1, 2, 3).map(f).join(",")',
        )
      ).result,
      "'2,4,6'",
    );
    await p.assertUnharmed();
  });

  it('processes and network: os.system fails, sockets are unreachable, no request arrives', async () => {
    const system = await p.run(s, 'import os\nos.system("id")');
    assert.equal(system.result, String(127 << 8), "the sandbox's commands have no id (sandbox_hints.py)");
    assert.match(system.stderr, /^id: not available: this sandbox runs no processes/);
    assertPythonError(
      await p.run(s, `import socket\nsocket.create_connection(('127.0.0.1', ${loopback.port}), timeout=2)`),
      'OSError',
      /\[Errno 23\] Host is unreachable/,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(loopback.connections(), 0);
    await p.assertUnharmed();
  });

  it('package files are read from their .data file on demand, and only within it', async () => {
    // What Python can reach of the on-demand reader (it hangs off every package file's FS node).
    const reader = `import js\ndata = js.pyodide._module.FS.lookupPath('/lib/python3.8/site.py').node.contents.compressedData.data\n`;
    assert.equal((await p.run(s, `${reader}data.subarray(0, 2048).length`)).result, '2048');
    assert.equal((await p.run(s, `${reader}data.length > 1_000_000`)).result, 'True');
    for (const range of ['-1, 10', '0, data.length + 1', '10, 5']) {
      assertPythonError(await p.run(s, `${reader}data.subarray(${range})`), 'JsException', /RangeError: .* outside/);
    }
    // The standard library still reads correctly through it.
    assert.equal((await p.run(s, 'import json\njson.dumps({"a": [1, 2]})')).result, `'{"a": [1, 2]}'`);
    await p.assertUnharmed();
  });

  it('memory bomb: MemoryError at the cap; offline packages still load after lockdown', async () => {
    const victim = await p.newSession();
    assertPythonError(await p.run(victim, 'b = bytearray(1536 * 1024**2)'), 'MemoryError', /^$/);
    const numpy = await p.run(victim, 'import numpy\nint(numpy.arange(10).sum())', 120);
    assert.equal(numpy.result, '45');
    await p.assertUnharmed();
  });

  it('an exception with a 50-million-character message: cut in the session, which lives on', async () => {
    const s = await p.newSession();
    await p.run(s, 'kept = 41');
    const r = await p.run(s, 'raise ValueError("C" * 50_000_000)', 60);
    assertPythonError(r, 'ValueError', /^C+$/);
    const limit = 10_000; // --max-traceback-chars default
    assert.equal(r.error!.message.length, limit);
    assert.equal((r as unknown as { truncated: { error: number } }).truncated.error, 50_000_000 - limit);
    assert.equal((await p.run(s, 'kept + 1')).result, '42');
    await p.assertUnharmed();
  });
});
