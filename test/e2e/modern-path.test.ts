/**
 * The modern runtime's whole path, end to end, against a loopback mirror: wheels built here for an invented
 * pure-Python preload set and named with their sha256 in a test lock (--lock-file), fetched by
 * `pyodide-mcp fetch-wheels --from http://127.0.0.1:…/` into a fresh per-user cache, then served by the real server
 * with `--runtime auto`. Then the memory snapshot that holds the (pure-Python) preload set imported: made by the
 * first server, used by the next one, with the packages' files unpacked again from the same verified wheels.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { modernVersion } from '../../src/python/distribution.js';
import { INVENTED_PRELOAD, inventedPackages, writeMirror } from '../fake-wheels.js';
import { CLI, eventually, startServer, type Harness } from '../helpers.js';

const run = promisify(execFile);

describe('modern runtime end to end, from a loopback mirror with a test lock', () => {
  const root = mkdtempSync(join(tmpdir(), 'modern-path-'));
  const mirror = join(root, 'mirror');
  const lockFile = join(root, 'test-lock.json');
  const cache = join(root, 'cache');
  const wheels = join(cache, 'pyodide-mcp', modernVersion(), 'wheels');
  const snapshots = join(cache, 'pyodide-mcp', 'snapshots');
  const lock = writeMirror(mirror, lockFile, inventedPackages());
  const requested: string[] = [];
  let http: Server;
  let base: string;
  const flags = ['--preload', INVENTED_PRELOAD.join(','), '--lock-file', lockFile];
  const env = { XDG_CACHE_HOME: cache };

  before(async () => {
    http = createServer((req, res) => {
      requested.push(`${req.method} ${req.url}`);
      const name = decodeURIComponent((req.url ?? '/').slice(1));
      const path = join(mirror, name);
      if (name.includes('/') || !existsSync(path)) {
        res.writeHead(404).end();
        return;
      }
      const body = readFileSync(path);
      res.writeHead(200, { 'content-length': body.byteLength });
      res.end(req.method === 'HEAD' ? undefined : body);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}/`;
  });
  after(() => http.close());

  it('fetch-wheels takes the test lock and fills the per-user cache from the loopback mirror, verified', async () => {
    const { stderr } = await run(
      process.execPath,
      [CLI, 'fetch-wheels', '--from', base, '--preload', INVENTED_PRELOAD.join(','), '--lock-file', lockFile],
      { env: { PATH: process.env.PATH ?? '', ...env } },
    );
    assert.match(stderr, /3\/3 wheels for inventedalpha, inventedheavy present and verified/);
    // The dependency came with its dependent; nothing else was asked for.
    const invented = ['inventedalpha', 'inventedbeta', 'inventedheavy'].map((name) => lock.packages[name]!.file_name);
    assert.deepEqual(
      readdirSync(wheels)
        .filter((f) => f.endsWith('.whl'))
        .sort(),
      [...invented].sort(),
    );
    assert.deepEqual(requested.filter((line) => line.startsWith('GET')).sort(), invented.map((f) => `GET /${f}`).sort());
    // Security: the per-user cache is private, as for the real wheels.
    assert.equal((await import('node:fs')).statSync(wheels).mode & 0o777, 0o700);
  });

  let first: { ms: number; imported: number };

  it('--runtime auto picks modern for the invented set; server_info and create_session say why; the packages work', async () => {
    const server = await startServer(flags, env);
    try {
      const info = await server.ok('server_info');
      assert.equal(info.distribution, 'modern');
      assert.match(
        info.reason,
        new RegExp(`every wheel needed for inventedalpha, inventedheavy is in ${escape(wheels)}, verified against ${escape(lockFile)}`),
      );
      assert.equal(info.python, lock.info.python);
      assert.deepEqual(info.packages, { inventedalpha: '1.0.0', inventedheavy: '2.0.0' });
      first = await readySession(server);
      // The first server's first worker made the snapshot (every preloaded package is pure Python).
      await eventually(
        async () => existsSync(snapshots) && readdirSync(snapshots).some((f) => f.endsWith('.snapshot')),
        60_000,
        'a snapshot',
      );
      assert.match(server.stderr(), /snapshot stored: .*\.snapshot/);
    } finally {
      await server.close();
    }
  });

  it('the next server boots ready sessions from the snapshot: modules imported already, files restored from the wheels', async () => {
    const startedAt = Date.now() / 1000;
    const server = await startServer(flags, env);
    try {
      const second = await readySession(server);
      assert.match(server.stderr(), /booting sessions from the memory snapshot/);
      // Imported before this server existed: the module comes from the snapshot, not from a new import.
      assert.ok(second.imported < startedAt, `imported at ${second.imported}, server started at ${startedAt}`);
      assert.ok(first.imported < startedAt);
      process.stderr.write(
        `[modern-path] create + preloaded: without snapshot ${first.ms.toFixed(0)} ms, from the snapshot ${second.ms.toFixed(0)} ms\n`,
      );
    } finally {
      await server.close();
    }
  });

  it('a tampered snapshot is not booted from (checksum), and sessions still work', async () => {
    const file = join(
      snapshots,
      readdirSync(snapshots).find((f) => f.endsWith('.snapshot'))!,
    );
    const { writeFileSync } = await import('node:fs');
    const bytes = readFileSync(file);
    bytes[bytes.length - 1] ^= 0xff;
    writeFileSync(file, bytes);
    const server = await startServer(flags, env);
    try {
      await readySession(server);
      assert.match(server.stderr(), /does not match its checksum/);
    } finally {
      await server.close();
    }
  });
});

/**
 * Creates a session, waits until its preload is imported, and checks that the invented packages work, their files
 * are there (a data file, metadata, a module nothing imported yet) and report their versions. Returns how long
 * create → preloaded took and when inventedheavy was imported (Python's clock, in seconds).
 */
async function readySession(server: Harness): Promise<{ ms: number; imported: number }> {
  const started = performance.now();
  const created = await server.ok('create_session');
  assert.equal(created.runtime.distribution, 'modern');
  assert.match(created.runtime.reason, /every wheel needed for inventedalpha, inventedheavy/);
  assert.match(created.runtime.python, /^3\.1\d/);
  const session_id = created.session_id as string;
  // A cell that imports a preloaded package waits for the session's preload.
  const reply = await server.ok('execute_code', {
    session_id,
    code:
      'import inventedalpha, inventedheavy, importlib.metadata as md\n' +
      'from inventedheavy import lazy\n' +
      'print(inventedalpha.greet("modern"), inventedalpha.data(), lazy.LAZY, inventedheavy.total(), sep="|")\n' +
      'print(md.version("inventedalpha"), md.version("inventedbeta"), md.version("inventedheavy"), sep="|")\n' +
      'inventedheavy.IMPORTED_AT',
  });
  const ms = performance.now() - started;
  assert.equal(reply.error ?? null, null, JSON.stringify(reply.error));
  const [line1, line2] = (reply.stdout as string).trim().split('\n');
  assert.equal(line1, "hello modern, twice 42|a data file shipped in the wheel|loaded from the wheel's files|120");
  assert.equal(line2, '1.0.0|0.3.1|2.0.0');
  const listing = await server.ok('list_packages', { session_id });
  assert.ok(
    ['inventedalpha', 'inventedbeta', 'inventedheavy'].every((name) => name in listing.loaded),
    JSON.stringify(listing.loaded),
  );
  await server.ok('close_session', { session_id });
  return { ms, imported: Number(reply.result) };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
