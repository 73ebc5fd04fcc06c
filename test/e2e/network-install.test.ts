/**
 * install_packages with --allow-network: the server fetches pure-Python wheels from a PyPI-style JSON
 * index (here one this test serves on 127.0.0.1), verifies them, and installs them into the session.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, textOf, type Harness } from '../helpers.js';
import { serveIndex, sha, wheel, type PypiIndex } from '../pypi-index.js';

describe('install_packages from an index (--allow-network)', () => {
  let index: PypiIndex;
  let h: Harness;
  let session_id: string;
  const files: Record<string, Uint8Array> = {
    'hello_mcp-1.0-py3-none-any.whl': wheel('hello_mcp', '1.0', 'from tiny_dep import VALUE\nGREETING = "hi " + VALUE\n'),
    'tiny_dep-2.0-py3-none-any.whl': wheel('tiny_dep', '2.0', 'VALUE = "there"\n'),
    'tampered-1.0-py3-none-any.whl': wheel('tampered', '1.0', 'X = 1\n'),
  };
  const releases: Record<string, object> = {
    'hello-mcp': {
      info: { name: 'hello-mcp', version: '1.0', requires_dist: ['tiny-dep (>=1)', 'pytest; extra == "test"'] },
      urls: [
        {
          filename: 'hello_mcp-1.0-py3-none-any.whl',
          url: '/files/hello_mcp-1.0-py3-none-any.whl',
          packagetype: 'bdist_wheel',
          digests: { sha256: sha(files['hello_mcp-1.0-py3-none-any.whl']!) },
        },
      ],
    },
    'tiny-dep': {
      info: { name: 'tiny-dep', version: '2.0', requires_dist: null },
      urls: [
        {
          filename: 'tiny_dep-2.0-py3-none-any.whl',
          url: '/files/tiny_dep-2.0-py3-none-any.whl',
          packagetype: 'bdist_wheel',
          digests: { sha256: sha(files['tiny_dep-2.0-py3-none-any.whl']!) },
        },
      ],
    },
    'compiled-only': {
      info: { name: 'compiled-only', version: '3.0' },
      urls: [
        {
          filename: 'compiled_only-3.0-cp312-cp312-manylinux_2_17_x86_64.whl',
          url: '/files/x.whl',
          packagetype: 'bdist_wheel',
          digests: { sha256: '00' },
        },
      ],
    },
    tampered: {
      info: { name: 'tampered', version: '1.0' },
      urls: [
        {
          filename: 'tampered-1.0-py3-none-any.whl',
          url: '/files/tampered-1.0-py3-none-any.whl',
          packagetype: 'bdist_wheel',
          digests: { sha256: '0'.repeat(64) },
        },
      ],
    },
  };

  before(async () => {
    index = await serveIndex(releases, files);
    h = await startServer(['--allow-network', '--index-url', index.url]);
    session_id = (await h.ok('create_session')).session_id;
  });
  after(async () => {
    await h.close();
    index.close();
  });

  it('installs a pure-Python wheel and its requirements, verified, into the session', async () => {
    const r = await h.ok('install_packages', { session_id, packages: ['hello-mcp'] });
    assert.deepEqual(r.installed, ['hello-mcp==1.0', 'tiny-dep==2.0']);
    assert.deepEqual(r.warnings, []);
    assert.ok(!index.requests.some((u) => u.includes('pytest')), 'requirements behind an extra are not fetched');
    assert.equal((await h.ok('execute_code', { session_id, code: 'import hello_mcp\nhello_mcp.GREETING' })).result, "'hi there'");
  });

  it('refuses compiled-only packages and wheels whose sha256 does not match, installing nothing', async () => {
    const compiled = await h.call('install_packages', { session_id, packages: ['compiled-only'] });
    assert.match(textOf(compiled), /PACKAGE_UNAVAILABLE: compiled-only: .*no pure-Python wheel/);
    const tampered = await h.call('install_packages', { session_id, packages: ['tampered'] });
    assert.match(textOf(tampered), /does not match the sha256/);
    const missing = await h.call('install_packages', { session_id, packages: ['no-such-thing'] });
    assert.match(textOf(missing), /not found on the index/);
    const check = await h.ok('execute_code', { session_id, code: 'import importlib.util\nimportlib.util.find_spec("tampered") is None' });
    assert.equal(check.result, 'True');
  });

  it('the session itself still has no network', async () => {
    const port = index.port;
    const before = index.requests.length;
    const r = await h.ok('execute_code', {
      session_id,
      code: `import urllib.request\ntry:\n    urllib.request.urlopen("http://127.0.0.1:${port}/pypi/tiny-dep/json", timeout=2)\n    "reached"\nexcept Exception as e:\n    type(e).__name__`,
    });
    assert.notEqual(r.result, "'reached'");
    assert.equal(index.requests.length, before);
  });
});
