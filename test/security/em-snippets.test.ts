/**
 * Security: the JavaScript of compiled libraries (EM_JS / EM_ASM) is compiled into a session's loader only when it
 * comes from a wheel the server verified, and only as one contained function (src/python/em-snippets.ts,
 * workers/thread/runtime/em-snippet-loader.ts). Here, over the real server on the modern runtime with a test lock:
 *  - a library the user's code writes and opens with ctypes, carrying a snippet of its own, is refused with a clear
 *    error, and its snippet never runs; the session and a bystander session go on working;
 *  - a verified wheel whose snippet tries to close its place in the loader and run code while the session boots is
 *    not compiled in (the server says so), nothing of it runs, and sessions boot.
 * That a verified library's snippets do run is test/e2e/compiled-packages.test.ts.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { zipSync } from 'fflate';
import { readModernLock } from '../../src/python/distribution.js';
import { startServer, type Harness } from '../helpers.js';
import { snippetModule } from '../wasm-builder.js';

/** A shared-library package (shaped like the lock's libopenblas) holding one side module. */
function sharedLibrary(dir: string, name: string, library: Uint8Array) {
  const fileName = `${name}-1.0.0.zip`;
  const bytes = zipSync({ [`lib/${name}.so`]: library });
  writeFileSync(join(dir, fileName), bytes);
  const pinned = readModernLock().packages.libopenblas!;
  return {
    ...pinned,
    name,
    version: '1.0.0',
    file_name: fileName,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

/** Python that writes `library` to `path` and opens it with ctypes; prints what happened. */
function openWithCtypes(path: string, library: Uint8Array): string {
  return (
    `open(${JSON.stringify(path)}, 'wb').write(bytes(${JSON.stringify([...library])}))\n` +
    `import ctypes\ntry:\n    ctypes.CDLL(${JSON.stringify(path)})\n    print('loaded')\nexcept OSError as e:\n    print('refused:', e)\n`
  );
}

describe('compiled libraries’ JavaScript: only verified, contained snippets are compiled in', () => {
  const dir = mkdtempSync(join(tmpdir(), 'em-snippets-security-'));
  const lockFile = join(dir, 'lock.json');
  const verifiedSnippet = '{ return $0 + 1; }';
  // Security: a wheel author's text that would close its case in the loader and set a global while sessions boot.
  const escapingSnippet = '} }; globalThis.bootEscape = "ran"; function f() { {';
  let server: Harness;

  before(async () => {
    const pinned = readModernLock();
    const lock = {
      info: pinned.info,
      packages: {
        ...pinned.packages,
        libsnippy: sharedLibrary(dir, 'libsnippy', snippetModule({}, [verifiedSnippet])),
        libescape: sharedLibrary(dir, 'libescape', snippetModule({}, [escapingSnippet])),
      },
    };
    writeFileSync(lockFile, JSON.stringify(lock));
    server = await startServer([
      '--runtime',
      'modern',
      '--preload',
      'none',
      '--lock-file',
      lockFile,
      '--wheels-dir',
      dir,
      '--warm-sessions',
      '1',
    ]);
  });
  after(() => server?.close());

  it('the server compiles the verified snippet in and names the one it refused, and why', async () => {
    const log = server.stderr();
    assert.match(log, /compiled libraries carry 1 JavaScript snippet\(s\), compiled into every session's loader/);
    assert.match(
      log,
      /JavaScript snippets not read \(that library will not load\): libescape-1\.0\.0\.zip!lib\/libescape\.so: a snippet that is not one JavaScript function/,
    );
  });

  it('a library the user writes, with a snippet of its own, is refused with the reason; nothing of it runs', async () => {
    const { session_id } = await server.ok('create_session');
    const bystander = (await server.ok('create_session')).session_id as string;
    await server.ok('execute_code', { session_id: bystander, code: 'kept = 41' });
    const code = openWithCtypes('/tmp/own.so', snippetModule({}, ['{ globalThis.ownSnippet = "ran"; return 0; }']));
    const reply = await server.ok('execute_code', { session_id, code });
    assert.match(
      reply.stdout,
      /refused: .*EvalError: this library carries JavaScript \(EM_JS \/ EM_ASM\) that is not from a wheel the server verified against the lock/s,
    );
    const after = await server.ok('execute_code', {
      session_id,
      code: "import js\nprint(getattr(js, 'ownSnippet', None), getattr(js, 'bootEscape', None))\n6 * 7",
    });
    assert.equal(after.stdout, 'None None\n');
    assert.equal(after.result, '42');
    assert.equal((await server.ok('execute_code', { session_id: bystander, code: 'kept + 1' })).result, '42');
  });

  it('the verified library loads; the one whose snippet would escape does not, with the reason', async () => {
    const { session_id } = await server.ok('create_session');
    const good = await server.call('install_packages', { session_id, packages: ['libsnippy'] });
    assert.ok(!good.isError, JSON.stringify(good.structuredContent));
    // The same text as a verified snippet is the verified wheel's own code: a copy of it loads.
    const copy = await server.ok('execute_code', {
      session_id,
      code: openWithCtypes('/tmp/copy.so', snippetModule({}, [verifiedSnippet])),
    });
    assert.equal(copy.stdout, 'loaded\n');
    const escaping = await server.ok('execute_code', {
      session_id,
      code: openWithCtypes('/tmp/escape.so', snippetModule({}, [escapingSnippet])),
    });
    assert.match(escaping.stdout, /refused: .*not from a wheel the server verified/s);
    const check = await server.ok('execute_code', { session_id, code: "import js\nprint(getattr(js, 'bootEscape', None))" });
    assert.equal(check.stdout, 'None\n');
  });
});
