/** wheels/ store: manifest from the real lock, verified copying from directory and http mirrors, and the CLI. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readModernLock } from '../src/python/distribution.js';
import { PACKAGE_ROOT } from '../src/paths.js';
import { buildManifest, DEFAULT_PRELOAD, fetchWheels, verifyFile, type WheelEntry } from '../src/python/wheels.js';

const WHEELS_CLI = join(fileURLToPath(import.meta.url), '..', '..', 'src', 'python', 'wheels-cli.js');
const tmpRoot = mkdtempSync(join(tmpdir(), 'pyodide-mcp-wheels-'));
after(() => rmSync(tmpRoot, { recursive: true, force: true }));
let dirCount = 0;
const freshDir = (label: string) => {
  const dir = join(tmpRoot, `${label}-${dirCount++}`);
  mkdirSync(dir);
  return dir;
};
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** A mirror of small random "wheels" and a lock-like manifest with their real sha256 (real wheels are not available offline). */
function syntheticMirror(names: string[]) {
  const mirror = freshDir('mirror');
  const wheels: WheelEntry[] = names.map((name) => {
    const data = randomBytes(1000 + Math.floor(Math.random() * 5000));
    const file_name = `${name}-1.0-py3-none-any.whl`;
    writeFileSync(join(mirror, file_name), data);
    return { name, version: '1.0', file_name, sha256: sha(data) };
  });
  return { mirror, manifest: { pyodide_version: 'test', python: '3.0', preload: names, wheels } };
}

describe('buildManifest from the real pyodide-lock.json', () => {
  const lock = readModernLock();

  test('lists numpy with its real file name and sha256', () => {
    const manifest = buildManifest(lock, DEFAULT_PRELOAD);
    const numpy = manifest.wheels.find((w) => w.name === 'numpy');
    assert.ok(numpy);
    assert.deepEqual(numpy, {
      name: 'numpy',
      version: lock.packages.numpy!.version,
      file_name: lock.packages.numpy!.file_name,
      sha256: lock.packages.numpy!.sha256,
    });
    assert.match(numpy.file_name, /^numpy-.+\.whl$/);
    assert.match(numpy.sha256, /^[0-9a-f]{64}$/);
    assert.equal(manifest.python, lock.info.python);
    assert.deepEqual(manifest.preload, DEFAULT_PRELOAD);
  });

  test('pandas pulls its closure in dependency order', () => {
    const names = buildManifest(lock, ['pandas']).wheels.map((w) => w.name);
    for (const dep of ['numpy', 'python-dateutil', 'pytz', 'six']) assert.ok(names.includes(dep), `${dep} in ${names}`);
    assert.ok(names.indexOf('six') < names.indexOf('python-dateutil'));
    assert.equal(names.at(-1), 'pandas');
  });

  test('unknown packages are rejected by name', () => {
    assert.throws(() => buildManifest(lock, ['no-such-package']), /no-such-package/);
  });

  test('the committed wheels/manifest.json is exactly what the lock generates', () => {
    const committed = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'wheels', 'manifest.json'), 'utf8'));
    assert.deepEqual(committed, buildManifest(lock, DEFAULT_PRELOAD));
  });
});

describe('fetchWheels from a local directory mirror', () => {
  test('keeps verified files, rejects tampered and missing ones, skips and repairs on later runs', async () => {
    const { mirror, manifest } = syntheticMirror(['alpha', 'beta', 'gamma']);
    const [alpha, beta, gamma] = manifest.wheels as [WheelEntry, WheelEntry, WheelEntry];
    writeFileSync(join(mirror, gamma.file_name), randomBytes(100)); // tampered after hashing
    const missing: WheelEntry = { name: 'delta', version: '1.0', file_name: 'delta-1.0-py3-none-any.whl', sha256: 'a'.repeat(64) };
    const dest = freshDir('dest');
    const lines: string[] = [];

    const first = await fetchWheels({
      from: mirror,
      manifest: { wheels: [...manifest.wheels, missing] },
      destDir: dest,
      log: (l) => lines.push(l),
    });
    assert.equal(first.fetched, 2);
    assert.equal(first.skipped, 0);
    assert.deepEqual(
      first.failed.map((f) => f.file_name),
      [gamma.file_name, missing.file_name],
    );
    assert.match(first.failed[0]!.reason, /sha256 mismatch/);
    assert.match(first.failed[1]!.reason, /not found in mirror/);
    assert.ok(await verifyFile(join(dest, alpha.file_name), alpha.sha256));
    assert.ok(await verifyFile(join(dest, beta.file_name), beta.sha256));
    // Nothing unverified and no temp files are left behind.
    assert.deepEqual(readdirSync(dest).sort(), [alpha.file_name, beta.file_name].sort());

    const second = await fetchWheels({ from: mirror, manifest: { wheels: [alpha, beta] }, destDir: dest });
    assert.deepEqual(second, { fetched: 0, skipped: 2, failed: [] });

    writeFileSync(join(dest, alpha.file_name), 'corrupt');
    const third = await fetchWheels({ from: mirror, manifest: { wheels: [alpha, beta] }, destDir: dest, log: (l) => lines.push(l) });
    assert.deepEqual(third, { fetched: 1, skipped: 1, failed: [] });
    assert.ok(await verifyFile(join(dest, alpha.file_name), alpha.sha256));
    assert.ok(lines.some((l) => l.includes(alpha.file_name) && l.includes('does not match')));
  });

  test('a corrupt present file whose mirror copy is also bad is removed, not kept', async () => {
    const { mirror, manifest } = syntheticMirror(['alpha']);
    const alpha = manifest.wheels[0]!;
    writeFileSync(join(mirror, alpha.file_name), 'truncated');
    const dest = freshDir('dest');
    writeFileSync(join(dest, alpha.file_name), 'stale');
    const summary = await fetchWheels({ from: mirror, manifest, destDir: dest });
    assert.equal(summary.failed.length, 1);
    assert.deepEqual(readdirSync(dest), []);
  });

  test('a missing mirror directory is an error that says what to do', async () => {
    await assert.rejects(
      fetchWheels({ from: join(tmpRoot, 'nope'), manifest: { wheels: [] }, destDir: freshDir('dest') }),
      /does not exist/,
    );
  });
});

test('fetchWheels from an http mirror on loopback', async (t) => {
  const { mirror, manifest } = syntheticMirror(['alpha', 'beta']);
  const server = createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url!, 'http://x').pathname.replace(/^\/full\//, ''));
    const path = join(mirror, name);
    if (!name.includes('/') && existsSync(path)) res.end(readFileSync(path));
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/full`; // no trailing slash on purpose
  const missing: WheelEntry = { name: 'zeta', version: '1', file_name: 'zeta-1-py3-none-any.whl', sha256: 'b'.repeat(64) };
  const dest = freshDir('dest');

  const summary = await fetchWheels({ from: base, manifest: { wheels: [...manifest.wheels, missing] }, destDir: dest });
  assert.equal(summary.fetched, 2);
  assert.equal(summary.failed.length, 1);
  assert.match(summary.failed[0]!.reason, /HTTP 404/);
  for (const w of manifest.wheels) assert.ok(await verifyFile(join(dest, w.file_name), w.sha256));
  assert.equal(readdirSync(dest).length, 2);
});

describe('wheels-cli as a child process (real lock)', () => {
  const run = (args: string[]) => spawnSync(process.execPath, [WHEELS_CLI, ...args], { encoding: 'utf8' });

  test('an empty mirror exits 1, names the missing files and keeps only the manifest', () => {
    const dest = freshDir('dest');
    const r = run(['--from', freshDir('mirror'), '--dest', dest, '--preload', 'pandas']);
    assert.equal(r.status, 1, r.stderr);
    const expected = buildManifest(readModernLock(), ['pandas']);
    for (const w of expected.wheels) assert.ok(r.stderr.includes(w.file_name), `${w.file_name} named in:\n${r.stderr}`);
    assert.deepEqual(readdirSync(dest), ['manifest.json']);
    assert.deepEqual(JSON.parse(readFileSync(join(dest, 'manifest.json'), 'utf8')), expected);
  });

  test('--from is required and the error explains why, writing nothing', () => {
    const dest = join(tmpRoot, 'never-created');
    const r = run(['--dest', dest]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /--from is required/);
    assert.match(r.stderr, /no default download source/);
    assert.equal(existsSync(dest), false);
  });

  test('--write-manifest-only writes the manifest for the default preload set and exits 0', () => {
    const dest = freshDir('dest');
    const r = run(['--write-manifest-only', '--dest', dest]);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(readFileSync(join(dest, 'manifest.json'), 'utf8')), buildManifest(readModernLock(), DEFAULT_PRELOAD));
  });
});
