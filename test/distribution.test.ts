/** Distribution selection and the wheel closure, against the real installed packages and lock file. */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { chooseDistribution, missingWheels, readModernLock, wheelClosure } from '../src/python/distribution.js';

const emptyWheels = () => mkdtempSync(join(tmpdir(), 'wheels-'));
const STACK = ['numpy', 'pandas', 'matplotlib', 'sympy'];

describe('distribution selection', () => {
  it('uses the offline scientific distribution when modern wheels are missing', () => {
    const d = chooseDistribution('auto', STACK, emptyWheels());
    assert.equal(d.kind, 'legacy');
    assert.match(d.reason, /wheel\(s\) needed .* are not in/);
  });

  it('uses the modern runtime with --preload none', () => {
    const d = chooseDistribution('auto', [], emptyWheels());
    assert.equal(d.kind, 'modern');
  });

  it('uses the modern runtime when every needed wheel is present', () => {
    const dir = emptyWheels();
    for (const pkg of wheelClosure(readModernLock(), ['sympy'])) writeFileSync(join(dir, pkg.file_name), '');
    assert.equal(chooseDistribution('auto', ['sympy'], dir).kind, 'modern');
    assert.equal(missingWheels(readModernLock(), ['sympy'], dir).length, 0);
  });

  it('refuses --runtime modern without the wheels, saying what is missing and what to do', () => {
    assert.throws(() => chooseDistribution('modern', STACK, emptyWheels()), /needs \d+ wheel\(s\) missing .*numpy-.*wheels:fetch/);
  });

  it('the closure includes dependencies in dependency order', () => {
    const names = wheelClosure(readModernLock(), ['pandas']).map((p) => p.name);
    for (const dep of ['numpy', 'python-dateutil', 'pytz', 'six']) assert.ok(names.includes(dep), dep);
    assert.ok(names.indexOf('numpy') < names.indexOf('pandas'));
    assert.throws(() => wheelClosure(readModernLock(), ['no-such-package']), /not part of Pyodide/);
  });
});
