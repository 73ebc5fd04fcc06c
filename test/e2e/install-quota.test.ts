/**
 * Package installs and the session's file quota, on the modern runtime over the real server: a wheel several times
 * larger than --max-file-bytes and --max-session-bytes installs by `import` (auto-load), by install_packages and by
 * the background preload, in both isolations. The install writes no temporary file (an audit hook a cell installs sees
 * every file the install opens), leaves nothing in /tmp, and the quota still holds for the user's own files after it
 * and, past what the wheel holds, for what user code writes while it runs.
 * Pyodide's own loader copied the whole archive into /tmp first, under the quota: such a wheel could not be installed,
 * and the log said only "[object Object] was thrown". A wheel's data files (copied outside the library directories)
 * still count, and such a failure is logged with the loader's own error.
 * Wheels built here (test/fake-wheels.ts), named with their sha256 in a test lock (--lock-file).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeMirror } from '../fake-wheels.js';
import { startServer, type Harness } from '../helpers.js';

const MB = 2 ** 20;
const MAX_FILE = 1 * MB;
const MAX_SESSION = 2 * MB;
/** Random bytes do not compress: the wheel is about this large, six times --max-file-bytes. */
const BLOB = 6 * MB;

const root = mkdtempSync(join(tmpdir(), 'install-quota-'));
const wheels = join(root, 'wheels');
const lockFile = join(root, 'lock.json');
const lock = writeMirror(wheels, lockFile, [
  {
    name: 'inventedbulk',
    version: '1.0.0',
    files: { 'inventedbulk/__init__.py': 'VALUE = 42\n', 'inventedbulk/blob.bin': randomBytes(BLOB) },
  },
  { name: 'inventedsmall', version: '1.0.0', files: { 'inventedsmall/__init__.py': 'VALUE = 3\n' } },
  {
    // A data file (the wheel's .data/data/ tree), which Pyodide copies under / : outside the library directories.
    name: 'inventeddata',
    version: '1.0.0',
    files: {
      'inventeddata/__init__.py': 'VALUE = 7\n',
      'inventeddata-1.0.0.data/data/share/inventeddata/big.bin': randomBytes(MAX_FILE + 1),
    },
  },
]);
after(() => rmSync(root, { recursive: true, force: true }));

const serverFlags = (isolation: string, extra: string[] = []) => [
  ...['--runtime', 'modern', '--lock-file', lockFile, '--wheels-dir', wheels, '--isolation', isolation],
  ...['--max-file-bytes', String(MAX_FILE), '--max-session-bytes', String(MAX_SESSION), '--warm-sessions', '0'],
  ...extra,
];

/** Python: the installed package's data file size, and what /tmp holds. */
const INSTALLED = `import os, inventedbulk
(inventedbulk.VALUE, os.path.getsize(os.path.join(os.path.dirname(inventedbulk.__file__), 'blob.bin')), sorted(os.listdir('/tmp')))`;

/** Python: the user's own writes after the install, each as 'written' or the errno's name. */
const USER_WRITES = `import errno
def attempt(path, size):
    try:
        with open(path, 'wb') as f:
            f.write(b'x' * size)
        return 'written'
    except OSError as e:
        return errno.errorcode[e.errno]
([attempt('/tmp/too-big', ${MAX_FILE + 1}), attempt('/tmp/one', ${MAX_FILE - 1000}), attempt('/tmp/two', ${MAX_FILE - 1000}),
  attempt('/tmp/three', ${MAX_FILE - 1000})], sorted(os.listdir('/tmp')))`;

for (const isolation of ['process', 'thread']) {
  describe(`a wheel larger than the file quota installs (${isolation} isolation)`, () => {
    let h: Harness;
    const env = { XDG_CACHE_HOME: join(root, `cache-${isolation}`) };
    before(async () => {
      h = await startServer(serverFlags(isolation), env);
    });
    after(() => h.close());

    it('by import: no temporary file, nothing in /tmp, and the quota still holds for user files', async () => {
      assert.ok(lock.packages.inventedbulk);
      const { session_id } = await h.ok('create_session');
      // Every file Python opens from here on, the install's included (it runs before the next cell's code).
      await h.ok('execute_code', {
        session_id,
        code: "import sys\nopened = []\nsys.addaudithook(lambda event, args: opened.append(str(args[0])) if event == 'open' else None)",
      });
      const imported = await h.ok('execute_code', { session_id, code: INSTALLED });
      assert.equal(imported.error, null, JSON.stringify(imported.error));
      assert.deepEqual(imported.loaded_packages, ['inventedbulk']);
      assert.equal(imported.result, `(42, ${BLOB}, [])`);
      const seen = await h.ok('execute_code', {
        session_id,
        code: "([p for p in opened if p.startswith('/tmp') or p.endswith('.whl')], any(p.endswith('/inventedbulk/blob.bin') for p in opened))",
      });
      // The hook saw the install write the package's files, and nothing else: no copy of the wheel, no tempfile probe.
      assert.equal(seen.result, '([], True)');

      // 6 MB installed, yet two files of nearly 1 MB still fit in the 2 MB session quota; the limits hold.
      const writes = await h.ok('execute_code', { session_id, code: USER_WRITES });
      assert.equal(writes.result, "(['EFBIG', 'written', 'written', 'ENOSPC'], ['one', 'three', 'too-big', 'two'])");
      await h.ok('close_session', { session_id });
    });

    it('by install_packages, with nothing left in /tmp', async () => {
      const { session_id } = await h.ok('create_session');
      const installed = await h.ok('install_packages', { session_id, packages: ['inventedbulk'] });
      assert.deepEqual(installed.installed, ['inventedbulk']);
      assert.equal(installed.loaded.inventedbulk, '1.0.0');
      const r = await h.ok('execute_code', { session_id, code: INSTALLED });
      assert.equal(r.result, `(42, ${BLOB}, [])`);
      const writes = await h.ok('execute_code', { session_id, code: USER_WRITES });
      assert.equal(writes.result, "(['EFBIG', 'written', 'written', 'ENOSPC'], ['one', 'three', 'too-big', 'two'])");
      assert.doesNotMatch(h.stderr(), /error occurred while loading/);
      await h.ok('close_session', { session_id });
    });

    it('what user code writes under /lib while a package installs counts, past what the wheel holds', async () => {
      const { session_id } = await h.ok('create_session');
      // An audit hook runs user code in the middle of the install; it writes five files of 900 kB where the
      // package's own files go. The wheel holds about 1 kB: the hook's files count, and the third one is refused.
      await h.ok('execute_code', {
        session_id,
        code: `import sys
junk = []
def hook(event, args):
    if event == 'open' and not junk and 'inventedsmall' in str(args[0]):
        for i in range(5):
            try:
                with open('/lib/python3.14/site-packages/junk%d' % i, 'wb') as f:
                    f.write(b'x' * 900_000)
                junk.append('written')
            except OSError as e:
                junk.append(__import__('errno').errorcode[e.errno])
sys.addaudithook(hook)`,
      });
      const r = await h.ok('execute_code', { session_id, code: 'import inventedsmall\n(inventedsmall.VALUE, junk)' });
      assert.equal(r.error, null, JSON.stringify(r.error));
      assert.equal(r.result, "(3, ['written', 'written', 'ENOSPC', 'ENOSPC', 'ENOSPC'])");
      await h.ok('close_session', { session_id });
    });

    it("a wheel's data file outside the library directories counts, and the failure is logged readably", async () => {
      const { session_id } = await h.ok('create_session');
      await h.call('install_packages', { session_id, packages: ['inventeddata'] });
      // The loader's own error, whatever else the reply and the log say about the failure.
      assert.match(h.stderr(), /inventeddata[^]*?OSError: \[Errno \d+\] File too large/);
      assert.doesNotMatch(h.stderr(), /\[object Object\]/);
      // A write from JavaScript past the quota (Pyodide's own loader made one) says why too: a JsException's text is the error's.
      const r = await h.ok('execute_code', {
        session_id,
        code: "import pyodide_js\npyodide_js.FS.writeFile('/tmp/js-write', 'x' * " + (MAX_FILE + 1) + ')',
      });
      assert.equal(r.error.type, 'JsException');
      assert.equal(r.error.message, `ErrnoError: file quota: a file may hold at most ${MAX_FILE} bytes (--max-file-bytes)`);
      await h.ok('close_session', { session_id });
    });
  });
}

describe('a wheel larger than the file quota is preloaded in the background', () => {
  let h: Harness;
  before(async () => {
    // No snapshot: the preload then runs in the session, under its quota, rather than during the boot.
    h = await startServer(serverFlags('process', ['--preload', 'inventedbulk', '--snapshot-dir', 'none']), {
      XDG_CACHE_HOME: join(root, 'cache-preload'),
    });
  });
  after(() => h.close());

  it('imports it, with nothing left in /tmp and the quota whole for the user', async () => {
    const created = await h.ok('create_session');
    assert.deepEqual(created.packages, { inventedbulk: '1.0.0' });
    const { session_id } = created;
    const r = await h.ok('execute_code', { session_id, code: INSTALLED });
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.equal(r.result, `(42, ${BLOB}, [])`);
    const writes = await h.ok('execute_code', { session_id, code: USER_WRITES });
    assert.equal(writes.result, "(['EFBIG', 'written', 'written', 'ENOSPC'], ['one', 'three', 'too-big', 'two'])");
    assert.doesNotMatch(h.stderr(), /error occurred while loading/);
  });
});
