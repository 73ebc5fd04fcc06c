/**
 * Escape routes from Python into the host, over the real server (modern runtime, --preload none). Each probe
 * asserts the exact failure, that the secret never comes back, that the legitimate use of the same mechanism
 * still works, and that the server and a bystander session are unharmed.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeMirror } from '../fake-wheels.js';
import { eventually, textOf } from '../helpers.js';
import { assertPythonError, EVAL_REFUSED, missingAttribute, secretDir, startProbeServer, writeWheel, type ProbeServer } from './probe.js';

describe('sandbox: host files, environment, code evaluation, processes (modern runtime)', () => {
  const ENV_SECRET = `ENV-SECRET-${Date.now()}`;
  const secrets = secretDir();
  const wheels = mkdtempSync(join(tmpdir(), 'pyodide-mcp-wheels-'));
  let p: ProbeServer;
  let s: string;
  before(async () => {
    // A wheel the lock names (with its sha256) is verified at start and loadable.
    const lock = join(wheels, 'pyodide-lock.json');
    writeMirror(wheels, lock, [
      { name: 'allowedwheel', version: '1.0', files: { 'allowedwheel/__init__.py': 'VALUE = "loaded-from-wheels-dir"\n' } },
    ]);
    writeWheel(secrets.dir, 'evilwheel', secrets.secret);
    p = await startProbeServer(['--preload', 'none', '--wheels-dir', wheels, '--lock-file', lock], { SANDBOX_TEST_SECRET: ENV_SECRET });
    s = await p.newSession();
  });
  after(async () => {
    await p.close();
    secrets.dispose();
    rmSync(wheels, { recursive: true, force: true });
  });

  /** Waits until the future `name` (from pyodide_js.loadPackage) is done; it progresses between calls. */
  const settled = (name: string) => eventually(async () => (await p.run(s, `${name}.done()`)).result === 'True', 20_000, `${name} settled`);

  /** Nothing the session returned contains the secret. */
  const noSecret = (value: unknown, secret = secrets.secret) => assert.ok(!JSON.stringify(value).includes(secret), 'the secret came back');

  it('js.process is an inert stand-in: no getBuiltinModule, binding, dlopen, kill, exit, env', async () => {
    for (const name of ['getBuiltinModule', 'binding', '_linkedBinding', 'dlopen', 'kill', 'exit', 'reallyExit', 'abort', 'mainModule']) {
      const r = await p.run(s, `import js\njs.process.${name}`);
      assertPythonError(r, 'AttributeError', missingAttribute(name));
    }
    const attempt = await p.run(s, `import js\njs.process.getBuiltinModule('fs').readFileSync(${JSON.stringify(secrets.file)}, 'utf8')`);
    assertPythonError(attempt, 'AttributeError', missingAttribute('getBuiltinModule'));
    noSecret(attempt);
    // What legitimately remains: version facts Emscripten reads.
    assert.match((await p.run(s, 'import js\njs.process.versions.node')).result!, /^'\d+\.\d+\.\d+'$/);
    await p.assertUnharmed();
  });

  it('host files: Python open(), loadBinaryFile, Pyodide loadPackage of a host wheel, NODEFS mounts all fail', async () => {
    const path = JSON.stringify(secrets.file);
    assertPythonError(await p.run(s, `open(${path}).read()`), 'FileNotFoundError', /No such file or directory/);
    const binary = await p.run(s, `import pyodide_js\npyodide_js._api.loadBinaryFile(${path})`);
    assertPythonError(binary, 'JsException', /pyodide\._api\.loadBinaryFile is disabled in the pyodide-mcp sandbox/);
    const mount = await p.run(s, `import pyodide_js\npyodide_js.mountNodeFS('/mnt', ${JSON.stringify(secrets.dir)})`);
    assertPythonError(mount, 'JsException', /pyodide\.mountNodeFS is disabled in the pyodide-mcp sandbox/);
    const nodefs = await p.run(
      s,
      `import pyodide_js\nfs = pyodide_js.FS\nfs.mkdir('/mnt2')\nfs.mount(fs.filesystems.NODEFS, {'root': ${JSON.stringify(secrets.dir)}}, '/mnt2')`,
    );
    assertPythonError(nodefs, 'AttributeError', missingAttribute('NODEFS'));
    // Pyodide's own package loader reads host files with Node fs: the permission model limits it to the
    // distribution and the wheels directory. A wheel elsewhere on the host is refused...
    await p.run(
      s,
      `import pyodide_js\nevil = pyodide_js.loadPackage(${JSON.stringify(join(secrets.dir, 'evilwheel-1.0-py3-none-any.whl'))})`,
    );
    await settled('evil');
    const evil = await p.run(s, 'import evilwheel');
    assertPythonError(evil, 'ModuleNotFoundError', /No module named 'evilwheel'/);
    // Pyodide reports load failures to its error callback (the server log), not through the future.
    const denied = /The following error occurred while loading evilwheel:\n.*Access to this API has been restricted/;
    await eventually(async () => denied.test(p.h.stderr()), 5_000, 'the load failure in the server log');
    // ...while the same mechanism still loads a verified wheel from the wheels directory.
    await p.run(s, `import pyodide_js\nok = pyodide_js.loadPackage(${JSON.stringify(join(wheels, 'allowedwheel-1.0-py3-none-any.whl'))})`);
    await settled('ok');
    assert.equal((await p.run(s, 'import allowedwheel; allowedwheel.VALUE')).result, "'loaded-from-wheels-dir'");
    // The session's own (virtual) file system still works.
    assert.equal((await p.run(s, 'open("/tmp/own.txt", "w").write("mine"); open("/tmp/own.txt").read()')).result, "'mine'");
    for (const r of [binary, mount, nodefs, evil]) noSecret(r);
    await p.assertUnharmed();
  });

  it('environment: the server secret is in neither os.environ nor js.process.env', async () => {
    const r = await p.run(
      s,
      'import os, js\n(dict(os.environ), js.Object.keys(js.process.env).to_py(), js.JSON.stringify(js.process.env))',
    );
    assert.equal(r.success, true);
    noSecret(r, ENV_SECRET);
    assert.doesNotMatch(r.result!, /SANDBOX_TEST_SECRET/);
    // Emscripten's own defaults (PATH=/ ...) are there; the server's PATH is not.
    assert.ok(!r.result!.includes(process.env.PATH ?? '/usr/bin'), "the server's PATH leaked");
    await p.assertUnharmed();
  });

  it('require, module and the realm globals: nothing host-facing on globalThis', async () => {
    for (const name of [
      'require',
      'module',
      'fetch',
      'WebSocket',
      'XMLHttpRequest',
      'EventSource',
      'BroadcastChannel',
      'MessageChannel',
      'MessagePort',
      'importScripts',
      'loadPyodide',
    ]) {
      assertPythonError(await p.run(s, `import js\njs.${name}`), 'AttributeError', missingAttribute(name));
    }
    const names = (await p.run(s, 'import js\nsorted(js.Object.getOwnPropertyNames(js.globalThis).to_py())')).result!;
    for (const gone of ['fetch', 'require', 'BroadcastChannel', 'MessagePort', 'Request', 'Response'])
      assert.doesNotMatch(names, new RegExp(`'${gone}'`));
    // Legitimate JS interop still works.
    assert.equal((await p.run(s, 'import js\njs.Math.sqrt(4)')).result, '2');
    assert.equal((await p.run(s, 'import js\njs.JSON.stringify(js.Array.of(1, 2))')).result, "'[1,2]'");
    await p.assertUnharmed();
  });

  it('Function constructor via .constructor.constructor, eval, AsyncFunction: EvalError', async () => {
    const probes = [
      `import js\njs.Object.constructor('return process')()`,
      `import js\njs.Math.max.constructor('return 1')()`,
      `import js\njs.Object.new().constructor.constructor('return globalThis')()`,
      `import js\njs.eval('1 + 1')`,
      `import js\njs.Reflect.construct(js.Function, ['return 1'])`,
    ];
    for (const code of probes) assertPythonError(await p.run(s, code), 'JsException', EVAL_REFUSED);
    await p.assertUnharmed();
  });

  it('pyodide.code.run_js and dynamic import(): EvalError; loadScript and socket init refused', async () => {
    assertPythonError(await p.run(s, 'from pyodide.code import run_js\nrun_js("1 + 1")'), 'JsException', EVAL_REFUSED);
    assertPythonError(await p.run(s, 'from pyodide.code import run_js\nrun_js("import(\'node:fs\')")'), 'JsException', EVAL_REFUSED);
    const internal = await p.run(s, 'import pyodide_js\n[k for k in ("loadScript", "initializeNodeSockFS") if k in dir(pyodide_js._api)]');
    for (const name of JSON.parse(internal.result!.replaceAll("'", '"')) as string[]) {
      const r = await p.run(s, `import pyodide_js\npyodide_js._api.${name}('data:text/javascript,export default 1')`);
      assertPythonError(r, 'JsException', new RegExp(`pyodide\\._api\\.${name} is disabled in the pyodide-mcp sandbox`));
    }
    // pyodide_js itself stays usable for what is harmless.
    assert.equal((await p.run(s, 'import pyodide_js\npyodide_js.runPython("6 * 7")')).result, '42');
    await p.assertUnharmed();
  });

  it('child processes: os.system, ctypes system() and subprocess run nothing', async () => {
    const marker = join(secrets.dir, 'created-by-shell');
    // os.system runs the line with the sandbox's own commands, as a `!` line (sandbox_hints.py): no host shell, and
    // touch is refused outside the workspace; echo, the last command, prints and succeeds.
    const system = await p.run(s, `import os\nos.system(${JSON.stringify(`touch ${marker}; echo PWNED`)})`);
    assert.match(system.stderr, /outside the workspace/);
    assert.equal(system.stdout, 'PWNED\n');
    assert.equal(system.result, '0');
    const viaCtypes = await p.run(s, `import ctypes\nctypes.CDLL(None).system(${JSON.stringify(`touch ${marker}`)}.encode())`);
    assert.equal(viaCtypes.result, String(127 << 8));
    assertPythonError(await p.run(s, 'import subprocess\nsubprocess.run(["id"])'), 'OSError', /does not support processes/);
    assert.equal(existsSync(marker), false, 'no shell ran');
    await p.assertUnharmed();
  });

  it('process.exit / kill / os._exit / signals: only the own session can end, the server survives', async () => {
    const victim = await p.newSession();
    assertPythonError(await p.run(victim, 'import js\njs.process.exit(1)'), 'AttributeError', missingAttribute('exit'));
    assertPythonError(await p.run(victim, 'import js\njs.process.kill(0, "SIGKILL")'), 'AttributeError', missingAttribute('kill'));
    for (const code of [
      'import os\nos.kill(os.getpid(), 9)',
      'import signal\nsignal.raise_signal(signal.SIGTERM)',
      'import os\nos._exit(3)',
    ]) {
      const other = await p.newSession();
      await p.attempt(other, code); // may end the session (its own business)
      await p.assertUnharmed();
    }
    // An exited interpreter is not left half-alive: the session says it has ended.
    for (const code of ['import os\nos._exit(3)', 'import os\nos.kill(os.getpid(), 9)']) {
      const ended = await p.newSession();
      const reply = await p.attempt(ended, code);
      assert.ok('error' in reply && reply.error?.type === 'WorkerTerminated', JSON.stringify(reply));
      const next = await p.h.call('execute_code', { session_id: ended, code: '1' });
      assert.match(textOf(next), /SESSION_DEAD: .*ended its process/);
    }
  });

  it('ctypes / _pyodide_core internals do not reach the host', async () => {
    // libc in the sandbox is Emscripten's: getpid is fake, there is no real fork/exec.
    const r = await p.run(s, 'import ctypes\nlibc = ctypes.CDLL(None)\n(libc.getpid(), libc.fork())');
    assert.equal(r.success, true);
    assert.match(r.result!, /^\(42, -1\)$/);
    const core = await p.run(s, 'import _pyodide_core\nsorted(n for n in dir(_pyodide_core) if not n.startswith("__"))');
    assert.equal(core.success, true);
    await p.assertUnharmed();
  });
});
