/**
 * Pure-Python wheels made on the spot, and a pyodide-lock.json that names them with their sha256: a loopback mirror
 * for the modern runtime's whole path (fetch-wheels, verification, loadPackage, snapshots), since the real
 * scientific wheels cannot be downloaded on the machines the tests run on. Used by test/e2e/modern-path.test.ts and
 * the bench.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { readModernLock, type Lockfile, type LockPackage } from '../src/python/distribution.js';

/** An invented pure-Python distribution: its files by path inside site-packages. */
export interface FakePackage {
  name: string;
  version: string;
  depends?: string[];
  /** e.g. {'inventedalpha/__init__.py': '…'} (text, or bytes for a data file); the .dist-info files are added. */
  files: Record<string, string | Uint8Array>;
}

/** RECORD's hash form: `sha256=` and the urlsafe base64 of the digest without padding. */
function recordHash(data: Uint8Array): string {
  return `sha256=${createHash('sha256').update(data).digest('base64url')}`;
}

/** A `py3-none-any` wheel of `pkg`: its file name and bytes. */
export function buildWheel(pkg: FakePackage): { fileName: string; bytes: Uint8Array } {
  const distInfo = `${pkg.name}-${pkg.version}.dist-info`;
  const files: Record<string, Uint8Array> = {};
  for (const [path, content] of Object.entries(pkg.files)) files[path] = typeof content === 'string' ? strToU8(content) : content;
  const requires = (pkg.depends ?? []).map((dep) => `Requires-Dist: ${dep}\n`).join('');
  files[`${distInfo}/METADATA`] = strToU8(`Metadata-Version: 2.1\nName: ${pkg.name}\nVersion: ${pkg.version}\n${requires}`);
  files[`${distInfo}/WHEEL`] = strToU8('Wheel-Version: 1.0\nGenerator: pyodide-mcp-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n');
  files[`${distInfo}/top_level.txt`] = strToU8(`${pkg.name}\n`);
  const record = Object.entries(files).map(([path, data]) => `${path},${recordHash(data)},${data.byteLength}`);
  files[`${distInfo}/RECORD`] = strToU8([...record, `${distInfo}/RECORD,,`, ''].join('\n'));
  // A fixed date: the same package gives the same bytes (and sha256) on every run.
  const zipped = zipSync(
    Object.fromEntries(Object.entries(files).map(([path, data]) => [path, [data, { mtime: new Date('2020-01-01T00:00:00Z') }]])),
  );
  return { fileName: `${pkg.name}-${pkg.version}-py3-none-any.whl`, bytes: zipped };
}

/**
 * Writes the wheels of `packages` into `mirrorDir` and a lock (`lockPath`) that is the pinned pyodide-lock.json plus
 * them, each with its sha256. Returns the lock.
 */
export function writeMirror(mirrorDir: string, lockPath: string, packages: FakePackage[]): Lockfile {
  return writeLock(lockPath, writeFakeWheels(mirrorDir, packages));
}

/** Writes the wheels of `packages` into `mirrorDir`; returns their lock entries (with sha256), by name. */
export function writeFakeWheels(mirrorDir: string, packages: FakePackage[]): Record<string, LockPackage> {
  mkdirSync(mirrorDir, { recursive: true });
  const added: Record<string, LockPackage & Record<string, unknown>> = {};
  for (const pkg of packages) {
    const { fileName, bytes } = buildWheel(pkg);
    writeFileSync(join(mirrorDir, fileName), bytes);
    added[pkg.name] = {
      name: pkg.name,
      version: pkg.version,
      file_name: fileName,
      install_dir: 'site',
      sha256: createHash('sha256').update(bytes).digest('hex'),
      package_type: 'package',
      imports: [pkg.name],
      depends: pkg.depends ?? [],
      unvendored_tests: false,
      tool: {},
    };
  }
  return added;
}

/** Writes to `lockPath` the pinned pyodide-lock.json plus the `added` entries; returns that lock. */
export function writeLock(lockPath: string, added: Record<string, LockPackage>): Lockfile {
  const pinned = readModernLock();
  const lock: Lockfile = { info: pinned.info, packages: { ...pinned.packages, ...added } };
  writeFileSync(lockPath, JSON.stringify(lock));
  return lock;
}

/**
 * The invented preload set: `inventedalpha` (needs `inventedbeta`, reads a data file of its own) and `inventedheavy`
 * (`modules` modules of plain code imported by its __init__, standing in for a large pure-Python package such as
 * sympy, and a `lazy` module that nothing imports). Each records when it was imported.
 */
export function inventedPackages(modules = 120): FakePackage[] {
  const heavy: Record<string, string> = {
    'inventedheavy/__init__.py':
      `import time as _time\nIMPORTED_AT = _time.time()\n__version__ = '2.0.0'\n` +
      Array.from({ length: modules }, (_, i) => `from . import m${i}\n`).join('') +
      `def total():\n    return sum(getattr(globals()['m%d' % i], 'value')() for i in range(${modules}))\n`,
    'inventedheavy/lazy.py': 'LAZY = "loaded from the wheel\'s files"\n',
  };
  for (let i = 0; i < modules; i++) {
    const functions = Array.from(
      { length: 30 },
      (_, j) =>
        `def f${j}(x, y=${j}):\n    """Function ${j} of module ${i}."""\n    if x > y:\n        return [x * k for k in range(${j})]\n    return {'x': x, 'y': y, 'k': ${j}}\n`,
    ).join('\n');
    const classes = Array.from(
      { length: 5 },
      (_, j) =>
        `class C${j}:\n    """Class ${j}."""\n    def __init__(self, a):\n        self.a = a\n    def __repr__(self):\n        return f"C${j}({self.a!r})"\n    @property\n    def double(self):\n        return self.a * 2\n`,
    ).join('\n');
    heavy[`inventedheavy/m${i}.py`] = `${functions}\n${classes}\nTABLE = {n: n * n for n in range(200)}\ndef value():\n    return 1\n`;
  }
  return [
    {
      name: 'inventedbeta',
      version: '0.3.1',
      files: { 'inventedbeta/__init__.py': `__version__ = '0.3.1'\ndef double(x):\n    return 2 * x\n` },
    },
    {
      name: 'inventedalpha',
      version: '1.0.0',
      depends: ['inventedbeta'],
      files: {
        'inventedalpha/__init__.py':
          `import os as _os, time as _time\nimport inventedbeta\nIMPORTED_AT = _time.time()\n__version__ = '1.0.0'\n` +
          `def greet(name):\n    return f"hello {name}, twice {inventedbeta.double(21)}"\n` +
          `def data():\n    with open(_os.path.join(_os.path.dirname(__file__), 'data.txt')) as f:\n        return f.read().strip()\n`,
        'inventedalpha/data.txt': 'a data file shipped in the wheel\n',
      },
    },
    { name: 'inventedheavy', version: '2.0.0', files: heavy },
  ];
}

/** What a server preloads to use the invented set. */
export const INVENTED_PRELOAD = ['inventedalpha', 'inventedheavy'];
