/** Distribution selection and the wheel closure, against the real installed packages and lock file. */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { chooseDistribution, missingWheels, readModernLock, wheelClosure, type Lockfile } from '../src/python/distribution.js';

const emptyWheels = () => mkdtempSync(join(tmpdir(), 'wheels-'));
const STACK = ['numpy', 'pandas', 'matplotlib', 'sympy'];
const dirs = (...paths: string[]) => paths.map((path) => ({ path, private: false }));

/**
 * The real lock with sympy's closure pointed at small random files hashed into it (the real wheels are not
 * reachable here), and a directory holding those files.
 */
function fakeSympy(): { lock: Lockfile; dir: string; files: string[] } {
  const lock = readModernLock();
  const dir = emptyWheels();
  const files = wheelClosure(lock, ['sympy']).map((pkg) => {
    const data = randomBytes(64);
    pkg.sha256 = createHash('sha256').update(data).digest('hex'); // the lock's own entry
    writeFileSync(join(dir, pkg.file_name), data);
    return pkg.file_name;
  });
  return { lock, dir, files };
}

describe('distribution selection', () => {
  it('uses the offline scientific distribution when modern wheels are missing, and says how to get modern', () => {
    const d = chooseDistribution('auto', STACK, dirs(emptyWheels()));
    assert.equal(d.kind, 'legacy');
    assert.match(d.reason, /wheel\(s\) needed .* are not in/);
    assert.match(d.reason, /npx pyodide-mcp fetch-wheels/);
  });

  it('uses the modern runtime with --preload none', () => {
    const d = chooseDistribution('auto', [], dirs(emptyWheels()));
    assert.equal(d.kind, 'modern');
  });

  it('uses the modern runtime when every needed wheel is present and matches the lock', () => {
    const { lock, dir, files } = fakeSympy();
    const d = chooseDistribution('auto', ['sympy'], dirs(emptyWheels(), dir), lock);
    assert.equal(d.kind, 'modern');
    assert.equal(d.wheelsDir, dir);
    assert.deepEqual(d.wheelFiles, [...files].sort());
    assert.equal(missingWheels(lock, ['sympy'], dir).length, 0);
  });

  it('never picks a tampered wheel: the reason names it, and another directory with good copies wins', () => {
    const { lock, dir, files } = fakeSympy();
    writeFileSync(join(dir, files[0]!), 'tampered');
    const d = chooseDistribution('auto', ['sympy'], dirs(dir), lock);
    assert.equal(d.kind, 'legacy');
    assert.match(d.reason, new RegExp(`${files[0]!.replace(/[.+]/g, '\\$&')} does not match its sha256`));
    const good = fakeSympy();
    const both = chooseDistribution('auto', ['sympy'], dirs(dir, good.dir), { ...lock, packages: good.lock.packages });
    assert.equal(both.wheelsDir, good.dir);
  });

  it('refuses a per-user cache directory that others may write, and files in it that others own or may write', () => {
    const { lock, dir } = fakeSympy();
    chmodSync(dir, 0o777);
    const open = chooseDistribution('auto', ['sympy'], [{ path: dir, private: true }], lock);
    assert.equal(open.kind, 'legacy');
    assert.match(open.reason, /writable by group or others/);
    chmodSync(dir, 0o700);
    assert.equal(chooseDistribution('auto', ['sympy'], [{ path: dir, private: true }], lock).kind, 'modern');
    const missing = join(emptyWheels(), 'not-yet');
    assert.equal(chooseDistribution('auto', ['sympy'], [{ path: missing, private: true }], lock).kind, 'legacy');
  });

  it('refuses --runtime modern without the wheels, saying what is missing and what to do', () => {
    assert.throws(
      () => chooseDistribution('modern', STACK, dirs(emptyWheels())),
      /needs \d+ verified wheel\(s\) not found .*numpy-.*npx pyodide-mcp fetch-wheels/,
    );
  });

  it('the closure includes dependencies in dependency order', () => {
    const names = wheelClosure(readModernLock(), ['pandas']).map((p) => p.name);
    for (const dep of ['numpy', 'python-dateutil', 'pytz', 'six']) assert.ok(names.includes(dep), dep);
    assert.ok(names.indexOf('numpy') < names.indexOf('pandas'));
    assert.throws(() => wheelClosure(readModernLock(), ['no-such-package']), /not part of Pyodide/);
  });
});
