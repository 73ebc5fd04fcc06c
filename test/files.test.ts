/** Path confinement and host-path rules: pure functions plus real temp directories (for realpath). */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkHostPath, isInside, mimeType, sensitiveReason, sessionPath, sessionUri } from '../src/sandbox/host-paths.js';

describe('sessionPath', () => {
  it('normalises paths inside the workspace', () => {
    assert.equal(sessionPath('a.txt'), 'a.txt');
    assert.equal(sessionPath('./data//x.csv'), 'data/x.csv');
    assert.equal(sessionPath('data/../b.txt'), 'b.txt');
    assert.equal(sessionPath('/workspace/fig.png'), 'fig.png');
    assert.equal(sessionPath('/workspace'), '');
    assert.equal(sessionPath(''), '');
    assert.equal(sessionPath('dir/'), 'dir');
  });

  it('refuses escapes with a reason', () => {
    assert.throws(() => sessionPath('../x'), /PATH_DENIED|climbs out/);
    assert.throws(() => sessionPath('a/../../x'), /climbs out/);
    assert.throws(() => sessionPath('/etc/passwd'), /outside the session workspace/);
    assert.throws(() => sessionPath('/workspace2/x'), /outside the session workspace/, 'prefix attack');
    assert.throws(() => sessionPath('a\0b'), /NUL/);
    assert.throws(() => sessionPath('a\\..\\b'), /backslash/);
  });

  it('builds URIs with encoded segments and knows MIME types', () => {
    assert.equal(sessionUri('abc', 'my dir/fig 1.png'), 'session://abc/my%20dir/fig%201.png');
    assert.equal(mimeType('x.png'), 'image/png');
    assert.equal(mimeType('x.csv'), 'text/csv');
    assert.equal(mimeType('x.py'), 'text/x-python');
    assert.equal(mimeType('x.unknownext'), 'application/octet-stream');
  });
});

describe('host paths', () => {
  const root = mkdtempSync(join(tmpdir(), 'hostpaths-'));
  const allowed = join(root, 'data');
  const sibling = join(root, 'data2');
  mkdirSync(allowed);
  mkdirSync(sibling);
  writeFileSync(join(allowed, 'ok.csv'), 'a,b\n');
  writeFileSync(join(sibling, 'other.csv'), 'x');
  writeFileSync(join(allowed, '.env'), 'SECRET=1');
  symlinkSync(join(sibling, 'other.csv'), join(allowed, 'link.csv'));
  const access = { allowDirs: [allowed], allowAll: false };

  it('allows files inside an allowed directory', () => {
    assert.equal(checkHostPath(join(allowed, 'ok.csv'), access, 'read'), join(allowed, 'ok.csv'));
    assert.equal(checkHostPath(join(allowed, 'new.csv'), access, 'write'), join(allowed, 'new.csv'));
  });

  it('refuses prefix tricks, symlinks out, traversal, missing files', () => {
    assert.throws(() => checkHostPath(join(sibling, 'other.csv'), access, 'read'), /not inside an allowed directory/);
    assert.throws(() => checkHostPath(join(allowed, 'link.csv'), access, 'read'), /not inside an allowed directory/, 'symlink resolved first');
    assert.throws(() => checkHostPath(join(allowed, '..', 'data2', 'other.csv'), access, 'read'), /not inside/);
    assert.throws(() => checkHostPath(join(allowed, 'missing.csv'), access, 'read'), /does not exist/);
    assert.throws(() => checkHostPath(join(root, 'nodir', 'x.csv'), access, 'write'), /directory does not exist/);
    assert.equal(isInside(join(sibling, 'x'), allowed), false);
  });

  it('refuses credential files even with --allow-all-dirs', () => {
    assert.throws(() => checkHostPath(join(allowed, '.env'), { allowDirs: [], allowAll: true }, 'read'), /credential/);
    for (const path of ['/home/u/.ssh/id_rsa', '/home/u/.aws/credentials', '/home/u/.docker/config.json', '/p/.env.local', '/p/.npmrc', '/p/.netrc', '/p/.pypirc', '/p/.git-credentials', '/p/api_token.txt', '/p/server.pem', '/p/credentials.json', '/home/u/.gnupg/x']) {
      assert.ok(sensitiveReason(path), path);
    }
    for (const path of ['/p/data.csv', '/p/environment.yml', '/p/tokenizer.py', '/p/report.pdf']) assert.equal(sensitiveReason(path), null, path);
  });
});
