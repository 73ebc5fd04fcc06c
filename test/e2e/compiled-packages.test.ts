/**
 * Real compiled packages on the modern runtime, over the real server in both isolations: our own C extensions and
 * shared library (test/compiled-wheels.ts), named in a test lock like numpy and libopenblas, loaded by Emscripten
 * 5.0.3's dynamic linker inside the locked-down session worker. Two servers per isolation:
 * - a pure-Python preload set (inventedalpha) and no warm sessions: the first session makes the memory snapshot and
 *   every later one boots from it; compiled packages are loaded after that, by import and by install_packages, in
 *   one session and in two at once, and an extension carrying EM_JS / EM_ASM (docs/runtimes.md);
 * - the compiled package as the preload set (no snapshot), with --state-dir: create_session reports it, and a session
 *   that imported a compiled package is restored after a restart.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeCompiledMirror } from '../compiled-wheels.js';
import { inventedPackages } from '../fake-wheels.js';
import { eventually, startServer, textOf, type Harness } from '../helpers.js';

const root = mkdtempSync(join(tmpdir(), 'compiled-packages-'));
const mirror = join(root, 'wheels');
const lockFile = join(root, 'test-lock.json');
// inventedalpha (and the inventedbeta it needs) as a small pure-Python preload set that can be snapshotted.
writeCompiledMirror(
  mirror,
  lockFile,
  inventedPackages(1).filter((pkg) => pkg.name !== 'inventedheavy'),
);
const LOCK_FLAGS = ['--runtime', 'modern', '--lock-file', lockFile, '--wheels-dir', mirror];

/** (a) + (b): the extension calls libmcpmath directly (library_version) and through a pointer in its data (dot). */
const NATIVE_CODE = 'import mcpnative\n(mcpnative.dot([1, 2, 3], [4, 5, 6]), mcpnative.library_version(), mcpnative.__version__)';
const NATIVE_RESULT = "(32.0, 10203, '1.0.0')";
/** (c): CPython's functions and one of the extension's own, called through addresses held in static data. */
const FPTR_CODE = 'import mcpfptr\n(mcpfptr.twice(21), mcpfptr.triple(5), mcpfptr.twice("ab"), mcpfptr.table_name())';
const FPTR_RESULT = "(42, 15, 'abab', 'CPython API through a table')";

for (const isolation of ['process', 'thread'] as const) {
  describe(`compiled packages, --isolation ${isolation}, booted from a memory snapshot of a pure-Python preload set`, () => {
    let server: Harness;
    before(async () => {
      server = await startServer([...LOCK_FLAGS, '--isolation', isolation, '--preload', 'inventedalpha', '--warm-sessions', '0'], {
        XDG_CACHE_HOME: mkdtempSync(join(root, `cache-${isolation}-`)),
      });
    });
    after(() => server.close());

    it('the first session makes the snapshot; the next boots from it, then imports and calls the compiled packages', async () => {
      const first = await server.ok('create_session');
      const made = await run(server, first.session_id, 'import inventedalpha\ninventedalpha.IMPORTED_AT');
      await eventually(async () => /snapshot stored: /.test(server.stderr()), 60_000, 'the snapshot stored');
      const second = await server.ok('create_session');
      // The module was imported once, by the first session's worker: the second has it from the snapshot's memory.
      assert.equal(await run(server, second.session_id, 'import inventedalpha\ninventedalpha.IMPORTED_AT'), made);
      assert.equal(await run(server, second.session_id, NATIVE_CODE), NATIVE_RESULT);
      assert.equal(await run(server, second.session_id, FPTR_CODE), FPTR_RESULT);
      const listing = await server.ok('list_packages', { session_id: second.session_id });
      assert.equal(listing.loaded.mcpnative, '1.0.0');
      assert.equal(listing.loaded.libmcpmath, '1.2.3');
      assert.equal(listing.loaded.mcpfptr, '1.0.0');
      // The session that made the snapshot loads them too.
      assert.equal(await run(server, first.session_id, NATIVE_CODE), NATIVE_RESULT);
      await server.ok('close_session', { session_id: first.session_id });
      await server.ok('close_session', { session_id: second.session_id });
    });

    it('install_packages loads the compiled package with its shared library', async () => {
      const { session_id } = await server.ok('create_session');
      const installed = await server.ok('install_packages', { session_id, packages: ['mcpnative'] });
      assert.ok(installed.installed.includes('mcpnative'), JSON.stringify(installed));
      assert.equal(installed.loaded.mcpnative, '1.0.0');
      assert.equal(installed.loaded.libmcpmath, '1.2.3');
      assert.equal(await run(server, session_id, 'import mcpnative\nmcpnative.dot([0.5] * 64, [2] * 64)'), '64.0');
      await server.ok('close_session', { session_id });
    });

    it('two sessions load and use the compiled packages at once', async () => {
      const [a, b] = await Promise.all([server.ok('create_session'), server.ok('create_session')]);
      const code = (n: number) => `import mcpnative, mcpfptr\n(mcpnative.dot([${n}, 1], [${n}, 2]), mcpfptr.triple(${n}))`;
      const [ra, rb] = await Promise.all([run(server, a.session_id, code(3)), run(server, b.session_id, code(7))]);
      assert.equal(ra, '(11.0, 9)');
      assert.equal(rb, '(51.0, 21)');
      // Each has its own copy: an error in one leaves the other's module working.
      const bad = await server.ok('execute_code', { session_id: a.session_id, code: 'mcpnative.dot([1], [1, 2])' });
      assert.match(bad.error?.message ?? '', /vectors differ in length/);
      assert.equal(await run(server, b.session_id, 'mcpnative.dot([1, 2], [3, 4])'), '11.0');
      await Promise.all([a, b].map((s) => server.ok('close_session', { session_id: s.session_id })));
    });

    it('loads an extension with an EM_JS function and an EM_ASM snippet (compiled on the host side, no eval)', async () => {
      const { session_id } = await server.ok('create_session');
      // values(n) == (n * n from the EM_JS function, n + 1000 from the EM_ASM snippet).
      assert.equal(await run(server, session_id, 'import mcpemjs\n(mcpemjs.values(7), mcpemjs.values(-3))'), '((49, 1007), (9, 997))');
      // The session goes on loading other compiled packages.
      assert.equal(await run(server, session_id, NATIVE_CODE), NATIVE_RESULT);
      await server.ok('close_session', { session_id });
    });
  });

  describe(`compiled packages, --isolation ${isolation}, the compiled package preloaded, --state-dir`, () => {
    const stateDir = mkdtempSync(join(root, `state-${isolation}-`));
    const flags = [...LOCK_FLAGS, '--isolation', isolation, '--preload', 'mcpnative', '--state-dir', stateDir, '--warm-sessions', '0'];
    let server: Harness;
    before(async () => {
      server = await startServer(flags);
    });
    after(() => server.close());

    it('create_session reports the preloaded compiled package, and a cell uses it', async () => {
      const created = await server.ok('create_session');
      assert.deepEqual(created.packages, { mcpnative: '1.0.0' });
      assert.equal(created.runtime.distribution, 'modern');
      assert.equal(await run(server, created.session_id, NATIVE_CODE), NATIVE_RESULT);
      await server.ok('close_session', { session_id: created.session_id });
    });

    it('a session that imported compiled packages is restored after a restart', async () => {
      const { session_id } = await server.ok('create_session');
      await run(server, session_id, 'import mcpnative, mcpfptr\nkept = (mcpnative.dot([2], [21]), mcpfptr.triple(14))');
      await sigterm(server);
      server = await startServer(flags);
      const reply = await server.call('execute_code', { session_id, code: 'kept, mcpfptr.twice(kept[1]), mcpnative.library_version()' });
      assert.ok(!reply.isError, textOf(reply));
      const structured = reply.structuredContent as Record<string, any>;
      assert.equal(structured.error ?? null, null, JSON.stringify(structured.error));
      assert.equal(structured.restored.cells, 1);
      assert.deepEqual(structured.restored.failed, []);
      assert.equal(structured.result, '((42.0, 42), 84, 10203)');
      await server.ok('close_session', { session_id });
    });
  });
}

/** Runs `code` in the session and returns its result, failing on a Python error. */
async function run(server: Harness, session_id: string, code: string): Promise<string> {
  const reply = await server.ok('execute_code', { session_id, code });
  assert.equal(reply.error ?? null, null, JSON.stringify(reply.error));
  return reply.result as string;
}

/** Sends SIGTERM to the server process and waits for it to exit (its sessions stay saved in --state-dir). */
async function sigterm(h: Harness): Promise<void> {
  const exited = new Promise<void>((resolve) => (h.transport.onclose = resolve));
  process.kill(h.transport.pid!, 'SIGTERM');
  await exited;
  await h.close().catch(() => {});
}
