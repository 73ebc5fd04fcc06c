/** Distribution selection and the wheel closure, against the real installed packages and lock file. */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { chooseDistribution, isPurePython, missingWheels, pinnedLockFile, readModernLock, wheelClosure, } from '../src/python/distribution.js';
import { pureClosure } from '../src/sessions/warm-pool.js';
const emptyWheels = () => mkdtempSync(join(tmpdir(), 'wheels-'));
const STACK = ['numpy', 'pandas', 'matplotlib', 'sympy'];
const dirs = (...paths) => paths.map((path) => ({ path, private: false }));
/**
 * The real lock with sympy's closure pointed at small random files hashed into it (the real wheels are not
 * reachable here), and a directory holding those files.
 */
function fakeSympy() {
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
        writeFileSync(join(dir, files[0]), 'tampered');
        const d = chooseDistribution('auto', ['sympy'], dirs(dir), lock);
        assert.equal(d.kind, 'legacy');
        assert.match(d.reason, new RegExp(`${files[0].replace(/[.+]/g, '\\$&')} does not match its sha256`));
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
        assert.throws(() => chooseDistribution('modern', STACK, dirs(emptyWheels())), /needs \d+ verified wheel\(s\) not found .*numpy-.*npx pyodide-mcp fetch-wheels/);
    });
    it('the closure includes dependencies in dependency order', () => {
        const names = wheelClosure(readModernLock(), ['pandas']).map((p) => p.name);
        for (const dep of ['numpy', 'python-dateutil', 'pytz', 'six'])
            assert.ok(names.includes(dep), dep);
        assert.ok(names.indexOf('numpy') < names.indexOf('pandas'));
        assert.throws(() => wheelClosure(readModernLock(), ['no-such-package']), /not part of Pyodide/);
    });
    it('a lock file given by path is the one sessions load by, and the reason names it', () => {
        const { lock, dir } = fakeSympy();
        const path = join(dir, 'test-lock.json');
        writeFileSync(path, JSON.stringify(lock));
        const d = chooseDistribution('auto', ['sympy'], dirs(dir), path);
        assert.equal(d.kind, 'modern');
        assert.equal(d.lockFile, path);
        assert.match(d.reason, new RegExp(`verified against ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
        assert.equal(chooseDistribution('auto', [], dirs(dir)).lockFile, pinnedLockFile());
        assert.equal(chooseDistribution('auto', STACK, dirs(emptyWheels())).lockFile, null, 'legacy has none');
    });
});
describe('which preload sets a memory snapshot may hold imported', () => {
    const lock = readModernLock();
    it('pure Python: py3-none-any wheels of package type "package" only', () => {
        assert.ok(isPurePython(lock.packages.sympy));
        assert.ok(isPurePython(lock.packages.mpmath));
        assert.ok(!isPurePython(lock.packages.numpy), 'compiled extension');
        assert.ok(!isPurePython(Object.values(lock.packages).find((pkg) => pkg.package_type === 'shared_library')), 'shared library');
    });
    it('a set whose closure is pure Python and verified; never one with a compiled package or an unverified wheel', () => {
        const all = Object.values(lock.packages).map((pkg) => pkg.file_name);
        const modern = (wheelFiles) => ({ ...chooseDistribution('auto', [], dirs(emptyWheels())), wheelFiles });
        const identity = pureClosure(modern(all), ['sympy']);
        assert.equal(identity[0], 'preload:sympy');
        // The cache key covers every wheel of the closure by name and sha256.
        for (const pkg of wheelClosure(lock, ['sympy']))
            assert.ok(identity.includes(`${pkg.file_name}:${pkg.sha256}`), pkg.name);
        assert.deepEqual(pureClosure(modern(all), []), [], 'nothing preloaded: the plain snapshot');
        assert.equal(pureClosure(modern(all), ['sympy', 'numpy']), null, 'numpy is compiled');
        assert.equal(pureClosure(modern(all), ['pandas']), null, 'pandas needs numpy');
        assert.equal(pureClosure(modern(all.filter((f) => !f.startsWith('mpmath'))), ['sympy']), null, 'mpmath not verified');
    });
});
