/**
 * Wheel stores: manifest from the real lock, verified copying from directory and http mirrors, `fetch-wheels` against
 * a loopback CDN (default URL, offline), the per-user cache and the postinstall step. No network: loopback only.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { modernVersion, readModernLock } from '../../src/python/distribution.js';
import { userWheelsDir } from '../../src/python/user-cache.js';
import { checkWheelDir } from '../../src/python/wheel-check.js';
import { defaultSource } from '../../src/python/wheels-cli.js';
import { PACKAGE_ROOT } from '../../src/paths.js';
import { progressReporter, StatusLine } from '../../src/python/fetch-progress.js';
import {
  buildManifest,
  DEFAULT_PRELOAD,
  fetchWheels,
  formatBytes,
  verifyFile,
  type FetchProgress,
  type WheelEntry,
} from '../../src/python/wheels.js';
import { writeMirror } from '../fake-wheels.js';

const CLI = join(fileURLToPath(import.meta.url), '..', '..', '..', 'src', 'cli.js');
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
    assert.deepEqual(second, { fetched: 0, skipped: 2, bytes: 0, failed: [], stopped: null });

    writeFileSync(join(dest, alpha.file_name), 'corrupt');
    const third = await fetchWheels({ from: mirror, manifest: { wheels: [alpha, beta] }, destDir: dest, log: (l) => lines.push(l) });
    assert.deepEqual(third, { fetched: 1, skipped: 1, bytes: statSync(join(mirror, alpha.file_name)).size, failed: [], stopped: null });
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

test('fetchWheels stops when the source stops answering midway, and says what it did not try', async (t) => {
  const { mirror, manifest } = syntheticMirror(['alpha', 'beta', 'gamma']);
  const [alpha, beta, gamma] = manifest.wheels as [WheelEntry, WheelEntry, WheelEntry];
  const server = createServer((req, res) => {
    // The network goes away after the first wheel (a laptop leaving the Wi-Fi): later connections are refused.
    server.close();
    res.writeHead(200, { connection: 'close' }).end(readFileSync(join(mirror, decodeURIComponent(req.url!.slice(1)))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const dest = freshDir('dest');
  const started = Date.now();
  const summary = await fetchWheels({ from: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, manifest, destDir: dest });
  assert.equal(summary.fetched, 1);
  assert.equal(summary.bytes, statSync(join(mirror, alpha.file_name)).size);
  assert.deepEqual(
    summary.failed.map((f) => f.file_name),
    [beta.file_name],
  );
  assert.match(summary.failed[0]!.reason, /cannot reach 127\.0\.0\.1:\d+: ECONNREFUSED/);
  assert.match(summary.stopped!.reason, /cannot reach/);
  assert.deepEqual(summary.stopped!.untried, [gamma.file_name]);
  assert.ok(Date.now() - started < 5000, 'no connect timeout waited out per wheel');
  assert.deepEqual(readdirSync(dest), [alpha.file_name]);
});

describe('fetch-wheels progress', () => {
  const progress = (over: Partial<FetchProgress>): FetchProgress => ({
    index: 1,
    count: 2,
    fileName: 'alpha-1.0-py3-none-any.whl',
    received: 0,
    size: 3 * 2 ** 20,
    totalBytes: 0,
    done: false,
    ...over,
  });

  test('in a terminal: one line rewritten in place, at most every 100 ms, and always for a new or stored wheel', () => {
    const written: string[] = [];
    const status = new StatusLine({ write: (text: string) => written.push(text), columns: 200 });
    let clock = 1000;
    const report = progressReporter({ line: (text) => status.line(text), status: (text) => status.update(text) }, () => clock);
    report(progress({ received: 2 ** 20, totalBytes: 2 ** 20 }));
    clock += 50;
    report(progress({ received: 2 * 2 ** 20, totalBytes: 2 * 2 ** 20 })); // too soon: not drawn
    clock += 60;
    report(progress({ received: 2.5 * 2 ** 20, totalBytes: 2.5 * 2 ** 20 }));
    report(progress({ received: 3 * 2 ** 20, totalBytes: 3 * 2 ** 20, done: true }));
    report(progress({ index: 2, fileName: 'beta-1.0-py3-none-any.whl', received: 1024, size: null, totalBytes: 3 * 2 ** 20 + 1024 }));
    status.line('fetch-wheels: done');
    assert.deepEqual(written, [
      '\rfetch-wheels: [1/2] 1.0 MB of 3.0 MB, 1.0 MB so far: alpha-1.0-py3-none-any.whl\x1b[K',
      '\rfetch-wheels: [1/2] 2.5 MB of 3.0 MB, 2.5 MB so far: alpha-1.0-py3-none-any.whl\x1b[K',
      '\rfetch-wheels: [1/2] verified, 3.0 MB so far: alpha-1.0-py3-none-any.whl\x1b[K',
      '\rfetch-wheels: [2/2] 1 kB, 3.0 MB so far: beta-1.0-py3-none-any.whl\x1b[K',
      // A line of its own clears the status line first.
      '\r\x1b[K',
      'fetch-wheels: done\n',
    ]);
  });

  test('a narrow terminal cuts the file name, never the figures; an unknown width counts as 80 columns', () => {
    const written: string[] = [];
    new StatusLine({ write: (text: string) => written.push(text), columns: 60 }).update(
      'fetch-wheels: [1/2] 1.0 MB of 3.0 MB, 1.0 MB so far: alpha-1.0-py3-none-any.whl',
    );
    // 59 columns of text: 58 of the line and the ellipsis (the last column stays free, so nothing wraps).
    assert.equal(written[0], '\rfetch-wheels: [1/2] 1.0 MB of 3.0 MB, 1.0 MB so far: alpha…\x1b[K');
    new StatusLine({ write: (text: string) => written.push(text), columns: 0 }).update('x'.repeat(100));
    assert.equal(written[1], `\r${'x'.repeat(78)}…\x1b[K`);
  });

  test('not a terminal: one plain line per wheel stored, and the bytes in the summary (the CLI, stderr piped)', async (t) => {
    const root = freshDir('progress');
    const lockFile = join(root, 'lock.json');
    const mirror = join(root, 'mirror');
    const lock = writeMirror(mirror, lockFile, [
      {
        name: 'inventedone',
        version: '1.0',
        files: { 'inventedone/__init__.py': 'X = 1\n', 'inventedone/data.bin': randomBytes(300_000) },
      },
      {
        name: 'inventedtwo',
        version: '1.0',
        depends: ['inventedone'],
        files: { 'inventedtwo/__init__.py': 'Y = 2\n', 'inventedtwo/data.bin': randomBytes(1_500_000) },
      },
    ]);
    const served = await loopback(t, (req, res) => {
      const path = join(mirror, decodeURIComponent(new URL(req.url!, 'http://x').pathname.slice(1)));
      if (!existsSync(path)) return void res.writeHead(404).end();
      const body = readFileSync(path);
      res.writeHead(200, { 'content-length': body.byteLength }).end(req.method === 'HEAD' ? undefined : body);
    });
    const dest = freshDir('dest');
    const r = await runAsync(['--from', served.url, '--lock-file', lockFile, '--preload', 'inventedtwo', '--dest', dest], {});
    assert.equal(r.status, 0, r.stderr);
    const [one, two] = ['inventedone', 'inventedtwo'].map((name) => lock.packages[name]!.file_name) as [string, string];
    const size = (file: string) => statSync(join(mirror, file)).size;
    assert.deepEqual(r.stderr.split('\n'), [
      `fetch-wheels: fetching 2 wheel(s) for inventedtwo from ${served.url} into ${dest}`,
      `  [1/2] ${one}: ${formatBytes(size(one))}, verified (${formatBytes(size(one))} so far)`,
      `  [2/2] ${two}: ${formatBytes(size(two))}, verified (${formatBytes(size(one) + size(two))} so far)`,
      `fetch-wheels: 2/2 wheels for inventedtwo present and verified in ${dest} (2 fetched, ${formatBytes(size(one) + size(two))}; ` +
        '0 already present); the server runs Python 3.14.2 on its next start',
      '',
    ]);
  });
});

test('fetch-wheels: when the source stops answering midway, the rest is named and a later run fetches only that', async (t) => {
  const root = freshDir('resume');
  const lockFile = join(root, 'lock.json');
  const mirror = join(root, 'mirror');
  const lock = writeMirror(
    mirror,
    lockFile,
    ['inventedone', 'inventedtwo', 'inventedthree'].map((name, i) => ({
      name,
      version: '1.0',
      depends: i === 2 ? ['inventedone', 'inventedtwo'] : [],
      files: { [`${name}/__init__.py`]: `X = ${i}\n`, [`${name}/data.bin`]: randomBytes(100_000) },
    })),
  );
  const [one, two, three] = ['inventedone', 'inventedtwo', 'inventedthree'].map((name) => lock.packages[name]!.file_name);
  /** A loopback mirror; `flaky`: it stops listening once it has sent one wheel (the laptop left the Wi-Fi). */
  const serve = async (flaky: boolean) => {
    const server = createServer((req, res) => {
      const body = readFileSync(join(mirror, decodeURIComponent(req.url!.slice(1))));
      if (req.method === 'HEAD') return void res.writeHead(200, { 'content-length': body.byteLength }).end();
      if (flaky) server.close();
      res.writeHead(200, { connection: 'close' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.after(() => server.close());
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  };
  const first = await serve(true);
  const size = (...files: string[]) => formatBytes(files.reduce((sum, file) => sum + statSync(join(mirror, file)).size, 0));
  const dest = freshDir('dest');
  const args = (url: string) => ['--from', url, '--lock-file', lockFile, '--preload', 'inventedthree', '--dest', dest];
  const r = await runAsync(args(first), {});
  assert.equal(r.status, 1, r.stderr);
  assert.ok(r.stderr.includes(`\n  [1/3] ${one}: ${size(one!)}, verified`), r.stderr);
  assert.match(
    r.stderr,
    new RegExp(`\\n  FAILED ${two}: could not copy from ${first}${two}: cannot reach 127\\.0\\.0\\.1:\\d+: ECONNREFUSED\\n`),
  );
  assert.match(r.stderr, new RegExp(`\\n  STOPPED: ${first} stopped answering; 1 wheel\\(s\\) not tried: ${three}\\n`));
  assert.ok(
    r.stderr.includes(`fetch-wheels: 1/3 wheels present and verified in ${dest} (${size(one!)} fetched now); 2 missing or unverified`),
  );
  // Back online: only what is missing is fetched.
  const again = await runAsync(args(await serve(false)), {});
  assert.equal(again.status, 0, again.stderr);
  assert.ok(again.stderr.includes(`(2 fetched, ${size(two!, three!)}; 1 already present)`), again.stderr);
  assert.deepEqual(readdirSync(dest).sort(), [one, two, three, 'manifest.json'].sort());
});

/** A loopback server that records each request and answers with `answer` (default: 404). */
async function loopback(t: { after: (fn: () => void) => void }, answer?: (req: IncomingMessage, res: ServerResponse) => void) {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (answer) answer(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  return { requests, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

describe('pyodide-mcp fetch-wheels as a child process (real lock)', () => {
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [CLI, 'fetch-wheels', ...args], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: freshDir('home'), ...env },
    });
  const version = modernVersion();

  test('without --from it fetches from the Pyodide CDN path of the pinned version into the per-user cache', async (t) => {
    // Serves wrong bytes: the real wheels are not reachable here, so every file fails its sha256 check.
    const cdn = await loopback(t, (_req, res) => res.end('not the real wheel'));
    const cache = freshDir('xdg');
    const r = await runAsync(['--preload', 'six'], { PYODIDE_MCP_CDN_URL: `${cdn.url}pyodide/`, XDG_CACHE_HOME: cache });
    assert.equal(r.status, 1, r.stderr);
    const six = readModernLock().packages.six!;
    assert.deepEqual(cdn.requests, [`HEAD /pyodide/v${version}/full/${six.file_name}`, `GET /pyodide/v${version}/full/${six.file_name}`]);
    assert.match(r.stderr, /sha256 mismatch/);
    assert.equal(defaultSource({}), `https://cdn.jsdelivr.net/pyodide/v${version}/full/`);
    const dir = userWheelsDir({ XDG_CACHE_HOME: cache }, version);
    assert.deepEqual(readdirSync(dir), ['manifest.json'], 'nothing unverified kept');
    assert.equal(statSync(dir).mode & 0o777, 0o700);
  });

  test('offline it fails fast with one clear line and a non-zero exit, creating nothing', async (t) => {
    const cache = freshDir('xdg');
    // A closed port (connection refused), then a server that accepts and never answers (a black hole).
    const closed = await closedPortUrl();
    const hole = createServer(() => {});
    await new Promise<void>((resolve) => hole.listen(0, '127.0.0.1', resolve));
    t.after(() => {
      hole.closeAllConnections();
      hole.close();
    });
    for (const [base, extra] of [
      [closed, []],
      [`http://127.0.0.1:${(hole.address() as AddressInfo).port}/`, ['--connect-timeout', '1']],
    ] as const) {
      const started = Date.now();
      const r = await runAsync([...extra], { PYODIDE_MCP_CDN_URL: base, XDG_CACHE_HOME: cache });
      assert.equal(r.status, 1, r.stderr);
      assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
      const lines = r.stderr.trim().split('\n');
      assert.equal(lines.length, 1, r.stderr);
      // The whole URL it tried, which is what a user mirrors, and how to list the files to put there.
      assert.ok(lines[0]!.startsWith(`fetch-wheels: cannot reach ${base}v${version}/full/ (`), lines[0]);
      assert.match(lines[0]!, /\((ECONNREFUSED|no answer within 1 s)\); nothing fetched, nothing changed\./);
      assert.match(
        lines[0]!,
        /npx pyodide-mcp fetch-wheels --write-manifest-only --dest <dir>` names its \d+ wheels in <dir>\/manifest\.json; put them in <dir> and pass --from <dir>\.$/,
      );
      assert.deepEqual(readdirSync(cache), [], 'the cache is not even created');
    }
  });

  test('an empty mirror directory exits 1, names the missing files and keeps only the manifest', () => {
    const dest = freshDir('dest');
    const r = run(['--from', freshDir('mirror'), '--dest', dest, '--preload', 'pandas']);
    assert.equal(r.status, 1, r.stderr);
    const expected = buildManifest(readModernLock(), ['pandas']);
    for (const w of expected.wheels) assert.ok(r.stderr.includes(w.file_name), `${w.file_name} named in:\n${r.stderr}`);
    assert.deepEqual(readdirSync(dest), ['manifest.json']);
    assert.deepEqual(JSON.parse(readFileSync(join(dest, 'manifest.json'), 'utf8')), expected);
  });

  test('--write-manifest-only writes the manifest for the default preload set and exits 0', () => {
    const dest = freshDir('dest');
    const r = run(['--write-manifest-only', '--dest', dest]);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(readFileSync(join(dest, 'manifest.json'), 'utf8')), buildManifest(readModernLock(), DEFAULT_PRELOAD));
  });

  test('refuses a cache directory that others may write, changing nothing', () => {
    const cache = freshDir('xdg');
    const dir = userWheelsDir({ XDG_CACHE_HOME: cache }, version);
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o777);
    const r = run(['--from', freshDir('mirror')], { XDG_CACHE_HOME: cache });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /writable by group or others/);
    assert.deepEqual(readdirSync(dir), []);
  });
});

describe('the per-user wheel cache', () => {
  test('two installs share one download; a tampered cached file is detected and replaced', async (t) => {
    const { mirror, manifest } = syntheticMirror(['alpha', 'beta']);
    const served = await loopback(t, (req, res) => {
      const path = join(mirror, decodeURIComponent(new URL(req.url!, 'http://x').pathname.slice(1)));
      if (existsSync(path)) res.end(readFileSync(path));
      else res.writeHead(404).end();
    });
    // Every install of this Pyodide version resolves the same cache directory from the environment.
    const env = { XDG_CACHE_HOME: freshDir('xdg') };
    const destDir = userWheelsDir(env, modernVersion());
    const gets = () => served.requests.filter((r) => r.startsWith('GET')).length;

    const bytes = (...wheels: WheelEntry[]) => wheels.reduce((sum, w) => sum + statSync(join(mirror, w.file_name)).size, 0);
    assert.deepEqual(await fetchWheels({ from: served.url, manifest, destDir }), {
      fetched: 2,
      skipped: 0,
      bytes: bytes(...manifest.wheels),
      failed: [],
      stopped: null,
    });
    assert.deepEqual(await fetchWheels({ from: served.url, manifest, destDir }), {
      fetched: 0,
      skipped: 2,
      bytes: 0,
      failed: [],
      stopped: null,
    });
    assert.equal(gets(), 2, 'the second install downloads nothing');

    const [alpha] = manifest.wheels as [WheelEntry];
    writeFileSync(join(destDir, alpha.file_name), 'planted');
    const lock = {
      info: { python: '3' },
      packages: Object.fromEntries(manifest.wheels.map((w) => [w.name, { ...w, depends: [], imports: [] }])),
    };
    const check = checkWheelDir({ path: destDir, private: true }, lock);
    assert.ok(!check.verified.has(alpha.file_name), 'the tampered file is never offered to sessions');
    assert.match(check.refused.join('\n'), /does not match its sha256/);
    const lines: string[] = [];
    assert.deepEqual(await fetchWheels({ from: served.url, manifest, destDir, log: (l) => lines.push(l) }), {
      fetched: 1,
      skipped: 1,
      bytes: bytes(alpha),
      failed: [],
      stopped: null,
    });
    assert.equal(gets(), 3);
    assert.ok(await verifyFile(join(destDir, alpha.file_name), alpha.sha256));
    assert.ok(lines.some((l) => l.includes('does not match')));
    assert.equal(checkWheelDir({ path: destDir, private: true }, lock).verified.size, 2);
  });
});

describe('postinstall', () => {
  const POSTINSTALL = join(PACKAGE_ROOT, 'scripts', 'postinstall.mjs');
  const run = (env: Record<string, string>) => runAsync([], { HOME: freshDir('home'), ...env }, [POSTINSTALL]);

  test('offline: the install succeeds within seconds with one line, and the cache is untouched', async () => {
    const cache = freshDir('xdg');
    const started = Date.now();
    const r = await run({ PYODIDE_MCP_CDN_URL: await closedPortUrl(), XDG_CACHE_HOME: cache });
    assert.equal(r.status, 0);
    assert.ok(Date.now() - started < 5000);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(
      r.stderr,
      /^pyodide-mcp: cannot reach http:\/\/127\.0\.0\.1:\d+\/v[\d.]+\/full\/ \(ECONNREFUSED\).*npx pyodide-mcp fetch-wheels/,
    );
    assert.deepEqual(readdirSync(cache), []);
  });

  test('PYODIDE_MCP_SKIP_DOWNLOAD=1: no request at all, one line', async (t) => {
    const cdn = await loopback(t);
    const r = await run({ PYODIDE_MCP_CDN_URL: cdn.url, XDG_CACHE_HOME: freshDir('xdg'), PYODIDE_MCP_SKIP_DOWNLOAD: '1' });
    assert.equal(r.status, 0);
    assert.deepEqual(cdn.requests, []);
    assert.match(r.stderr, /^pyodide-mcp: PYODIDE_MCP_SKIP_DOWNLOAD is set: no download[^\n]*\n$/);
  });
});

/** A loopback URL nothing listens on (connection refused), as offline looks to a client with a route. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/`;
}

/** Runs the CLI (or `script`) without blocking this process's event loop, which serves the loopback mirror. */
function runAsync(args: string[], env: Record<string, string>, script: string[] = [CLI, 'fetch-wheels']) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [...script, ...args], { env: { PATH: process.env.PATH ?? '', HOME: freshDir('home'), ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
