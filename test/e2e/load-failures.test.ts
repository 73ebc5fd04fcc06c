/**
 * A compiled package that fails to load, over the real server on the modern runtime (test lock with --lock-file):
 * `mcpbroken` (test/compiled-wheels.ts) references a data symbol nobody defines, so Emscripten's linker refuses it
 * with "undefined symbol 'mcp_fixture_data_nobody_defines'". Each reply that loads packages names it and why and
 * never lists it as loaded: a cell that imports it (execute_code), install_packages (and a cell's %pip line), and
 * create_session when it is in the preload set. Importing it again gives that reason again, not the linker's
 * leftover stub's "does not define module export function"; and the good compiled packages (an extension with its
 * shared library, one calling through function-pointer tables) load afterwards in the same session, which the
 * undefined symbol's leftover global-offset-table entry used to prevent (workers/thread/runtime/dynlib-rollback.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeCompiledMirror } from '../compiled-wheels.js';
import { eventually, startServer, textOf, type Harness } from '../helpers.js';

const root = mkdtempSync(join(tmpdir(), 'load-failures-'));
const mirror = join(root, 'wheels');
const lockFile = join(root, 'test-lock.json');
writeCompiledMirror(mirror, lockFile);
const LOCK_FLAGS = ['--runtime', 'modern', '--lock-file', lockFile, '--wheels-dir', mirror];

/** The loader's own reason, as each reply must give it. */
const REASON = /Failed to load dynamic library \S*mcpbroken\S*\.so: .*undefined symbol 'mcp_fixture_data_nobody_defines'/s;
/** What importing it says: the dynamic linker's reason, not the stub's. */
const IMPORT_REASON = /undefined symbol 'mcp_fixture_data_nobody_defines'/;
const STUB_ERROR = /does not define module export function/;
const NATIVE_CODE = 'import mcpnative\n(mcpnative.dot([1, 2, 3], [4, 5, 6]), mcpnative.library_version())';
const NATIVE_RESULT = '(32.0, 10203)';
const FPTR_CODE = 'import mcpfptr\n(mcpfptr.twice(21), mcpfptr.table_name())';
const FPTR_RESULT = "(42, 'CPython API through a table')";

for (const isolation of ['process', 'thread'] as const) {
  describe(`a compiled package that fails to load (modern runtime, test lock, --isolation ${isolation})`, () => {
    let server: Harness;
    before(async () => {
      server = await startServer([...LOCK_FLAGS, '--isolation', isolation, '--warm-sessions', '0']);
    });
    after(() => server.close());

    it('execute_code names it and why, imports give the real reason every time, and other compiled packages still load', async () => {
      const { session_id } = await server.ok('create_session');
      const first = await server.call('execute_code', { session_id, code: 'import mcpbroken' });
      const reply = first.structuredContent as Record<string, any>;
      assert.deepEqual(reply.loaded_packages, []);
      assert.equal(reply.failed_packages.length, 1, JSON.stringify(reply.failed_packages));
      assert.equal(reply.failed_packages[0].name, 'mcpbroken');
      assert.match(reply.failed_packages[0].reason, REASON);
      assert.ok(Buffer.byteLength(reply.failed_packages[0].reason) <= 1024);
      assert.match(textOf(first), /package mcpbroken failed to load: Failed to load dynamic library/);
      assert.equal(reply.error.type, 'ImportError');
      assert.match(reply.error.message, IMPORT_REASON);

      // The next cell tries the load again: the same reason, not a stub's "success".
      const again = await server.ok('execute_code', { session_id, code: 'import mcpbroken' });
      assert.equal(again.failed_packages[0]?.name, 'mcpbroken');
      assert.match(again.error.message, IMPORT_REASON);
      assert.doesNotMatch(again.error.message, STUB_ERROR);
      // Twice in one cell, the second import after the first failed.
      const twice = await server.ok('execute_code', {
        session_id,
        code: 'try:\n    import mcpbroken\nexcept ImportError as e:\n    first = str(e)\nimport mcpbroken',
      });
      assert.match(twice.error.message, IMPORT_REASON);
      assert.doesNotMatch(twice.error.message, STUB_ERROR);
      assert.match(await result(server, session_id, 'first'), IMPORT_REASON);

      // The broken library's undefined symbol does not fail the libraries loaded after it.
      const native = await server.ok('execute_code', { session_id, code: NATIVE_CODE });
      assert.equal(native.error, null, JSON.stringify(native.error));
      assert.equal(native.result, NATIVE_RESULT);
      assert.deepEqual(native.loaded_packages, ['mcpnative']);
      assert.deepEqual(native.failed_packages, []);
      assert.equal(await result(server, session_id, FPTR_CODE), FPTR_RESULT);
      const listing = await server.ok('list_packages', { session_id });
      assert.equal(listing.loaded.mcpnative, '1.0.0');
      assert.equal(listing.loaded.libmcpmath, '1.2.3');
      assert.equal('mcpbroken' in listing.loaded, false);
      // And it still fails with its reason after them.
      const last = await server.ok('execute_code', { session_id, code: 'import mcpbroken' });
      assert.match(last.error.message, IMPORT_REASON);
      await server.ok('close_session', { session_id });
    });

    it('install_packages names it and why: an error when nothing else was installed, in `failed` beside what was', async () => {
      const { session_id } = await server.ok('create_session');
      const refused = await server.call('install_packages', { session_id, packages: ['mcpbroken'] });
      assert.equal(refused.isError, true);
      assert.match(
        textOf(refused),
        /^PACKAGE_LOAD_FAILED: Nothing was installed into session \S+: mcpbroken \(Failed to load dynamic library/,
      );
      assert.match(textOf(refused), IMPORT_REASON);

      const partly = await server.ok('install_packages', { session_id, packages: ['mcpbroken', 'mcpfptr', 'mcpnative'] });
      assert.deepEqual([...partly.installed].sort(), ['mcpfptr', 'mcpnative']);
      assert.deepEqual(
        partly.failed.map((failure: { name: string }) => failure.name),
        ['mcpbroken'],
      );
      assert.match(partly.failed[0].reason, REASON);
      assert.equal('mcpbroken' in partly.loaded, false);
      assert.equal(partly.loaded.mcpfptr, '1.0.0');
      assert.equal(partly.loaded.libmcpmath, '1.2.3');
      assert.equal(await result(server, session_id, FPTR_CODE), FPTR_RESULT);
      assert.equal(await result(server, session_id, NATIVE_CODE), NATIVE_RESULT);

      // A cell's %pip line goes through install_packages' path: the cell still runs, its reply names the failure, and
      // the line says it failed instead of "Successfully installed".
      const pip = await server.ok('execute_code', { session_id, code: '%pip install mcpbroken\nimport mcpbroken' });
      assert.deepEqual(
        pip.failed_packages.map((failure: { name: string }) => failure.name),
        ['mcpbroken'],
      );
      assert.match(pip.stderr, /ERROR: mcpbroken failed to load/);
      assert.doesNotMatch(pip.stdout, /Successfully installed/);
      assert.match(pip.error.message, IMPORT_REASON);
      await server.ok('close_session', { session_id });
    });

    it('user code that calls the forget function while its own package load runs does not break that load', async () => {
      // The function is reachable from Python (the harness's finder calls it); while a load is in progress it does
      // nothing, so the packages loaded around mcpbroken's failure, and it, end as usual.
      const { session_id } = await server.ok('create_session');
      const code = [
        'import asyncio, importlib, pyodide_js',
        'forget = pyodide_js._pyodide_mcp_forget_failed_loads',
        'calls = 0',
        'async def keep_forgetting(load):',
        '    global calls',
        '    while not load.done():',
        '        forget()',
        '        calls += 1',
        '        await asyncio.sleep(0)',
        "load = asyncio.ensure_future(pyodide_js.loadPackage(['mcpnative', 'mcpbroken', 'mcpfptr']))",
        'await asyncio.gather(load, keep_forgetting(load))',
        "(calls > 1, importlib.import_module('mcpnative').dot([1, 2], [3, 4]), importlib.import_module('mcpfptr').twice(4))",
      ].join('\n');
      assert.equal(await result(server, session_id, code), '(True, 11.0, 8)');
      const broken = await server.ok('execute_code', { session_id, code: 'import mcpbroken' });
      assert.match(broken.error.message, IMPORT_REASON);
      await server.ok('close_session', { session_id });
    });
  });
}

describe('a compiled package that fails to load, preloaded (modern runtime, test lock)', () => {
  let server: Harness;
  before(async () => {
    // mcpbroken first: the packages preloaded after it must not inherit its undefined symbol.
    server = await startServer([...LOCK_FLAGS, '--preload', 'mcpbroken,mcpnative,mcpfptr', '--warm-sessions', '1']);
  });
  after(() => server.close());

  it('create_session names it and why and leaves it out of `packages`; the rest of the preload set works', async () => {
    await eventually(async () => (await server.ok('server_info')).warm_preloaded === 1, 120_000, 'a warm session preloaded');
    const created = await server.ok('create_session');
    assert.deepEqual(created.packages, { mcpnative: '1.0.0', mcpfptr: '1.0.0' });
    assert.equal(created.failed_packages.length, 1, JSON.stringify(created.failed_packages));
    assert.equal(created.failed_packages[0].name, 'mcpbroken');
    assert.match(created.failed_packages[0].reason, REASON);
    assert.match(server.stderr(), /preload: mcpbroken not imported: Failed to load dynamic library/);
    const { session_id } = created;
    assert.equal(await result(server, session_id, NATIVE_CODE), NATIVE_RESULT);
    assert.equal(await result(server, session_id, FPTR_CODE), FPTR_RESULT);
    const broken = await server.ok('execute_code', { session_id, code: 'import mcpbroken' });
    assert.match(broken.error.message, IMPORT_REASON);
    assert.equal(broken.failed_packages[0]?.name, 'mcpbroken');
    await server.ok('close_session', { session_id });
  });
});

describe('a library that fails to load on the legacy runtime (Pyodide 0.17.1)', () => {
  let server: Harness;
  before(async () => {
    server = await startServer(['--runtime', 'legacy', '--warm-sessions', '0']);
  });
  after(() => server.close());

  it("importing it again gives the loader's reason again, not its leftover placeholder's", async () => {
    const { session_id } = await server.ok('create_session');
    // A file that is no library, where Python finds extension modules: 0.17.1's linker refuses it.
    const write =
      "import sys\nsite = [p for p in sys.path if p.endswith('site-packages')][0]\n" +
      "open(site + '/notalib.cpython-38.so', 'wb').write(b'this is not a WebAssembly library at all')\n";
    const LEGACY_REASON =
      /Could not load dynamic lib: \S*notalib\.cpython-38\.so\s+RuntimeError: abort\(Assertion failed: need to see wasm magic number\)/;
    const first = await server.ok('execute_code', { session_id, code: `${write}import notalib` });
    assert.match(first.error.message, LEGACY_REASON);
    const again = await server.ok('execute_code', { session_id, code: 'import notalib' });
    assert.match(again.error.message, LEGACY_REASON);
    assert.doesNotMatch(again.error.message, STUB_ERROR);
    const twice = await server.ok('execute_code', {
      session_id,
      code: 'try:\n    import notalib\nexcept ImportError:\n    pass\nimport notalib',
    });
    assert.match(twice.error.message, LEGACY_REASON);
    await server.ok('close_session', { session_id });
  });
});

/** Runs `code` in the session and returns its result, failing on a Python error. */
async function result(server: Harness, session_id: string, code: string): Promise<string> {
  const reply = await server.ok('execute_code', { session_id, code });
  assert.equal(reply.error ?? null, null, JSON.stringify(reply.error));
  return reply.result as string;
}
