/** Memory snapshots: the cache rejects corrupt files, and servers build, reuse and rebuild them. */
import assert from 'node:assert/strict';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SnapshotCache } from '../../src/python/snapshot-cache.js';
import { parseConfig, type Config } from '../../src/server/config.js';
import { eventually, startServer } from '../helpers.js';

describe('SnapshotCache', () => {
  it('round-trips bytes into shared memory and rejects a tampered file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'snap-'));
    const logs: string[] = [];
    const cache = new SnapshotCache(dir, ['v1'], (m) => logs.push(m));
    assert.equal(cache.load(), null, 'nothing yet');
    cache.store(new Uint8Array([1, 2, 3, 4]));
    const loaded = cache.load()!;
    assert.deepEqual([...loaded], [1, 2, 3, 4]);
    assert.ok(loaded.buffer instanceof SharedArrayBuffer);
    const file = join(
      dir,
      readdirSync(dir).find((f) => f.endsWith('.snapshot'))!,
    );
    writeFileSync(file, new Uint8Array([1, 2, 3, 5]));
    assert.equal(cache.load(), null);
    assert.match(logs.join('\n'), /does not match its checksum/);
    assert.equal(existsSync(file), false, 'the corrupt file is deleted');
  });

  it('keys snapshots by their identity, so a different version never reuses one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'snap-'));
    new SnapshotCache(dir, ['314.0.7'], () => {}).store(new Uint8Array([9]));
    assert.equal(new SnapshotCache(dir, ['314.0.8'], () => {}).load(), null);
  });

  const snapshotFile = (dir: string) =>
    join(
      dir,
      readdirSync(dir).find((f) => f.endsWith('.snapshot'))!,
    );

  it('ignores (and rebuilds) a snapshot or checksum that group or others could write; uses a correct one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'snap-'));
    const logs: string[] = [];
    const cache = new SnapshotCache(dir, ['v1'], (m) => logs.push(m));
    cache.store(new Uint8Array([1, 2, 3]));
    const file = snapshotFile(dir);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(`${file}.sha256`).mode & 0o777, 0o600);
    assert.deepEqual([...cache.load()!], [1, 2, 3], 'a correct snapshot is used');
    for (const planted of [file, `${file}.sha256`]) {
      // A matching pair that anyone could have written: e.g. a planted snapshot with its own checksum.
      chmodSync(planted, 0o666);
      assert.equal(cache.load(), null, planted);
      assert.match(logs.at(-1)!, /ignoring the memory snapshot: .* is writable by group or others \(mode 666\); deleting it/);
      assert.equal(existsSync(file) || existsSync(`${file}.sha256`), false, 'the untrusted pair is deleted');
      cache.store(new Uint8Array([4, 5, 6]));
      assert.deepEqual([...cache.load()!], [4, 5, 6], 'rebuilt and used again');
    }
  });

  it('ignores a snapshot owned by another user', { skip: process.getuid?.() !== 0 && 'needs root to chown a file' }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'snap-'));
    const logs: string[] = [];
    const cache = new SnapshotCache(dir, ['v1'], (m) => logs.push(m));
    cache.store(new Uint8Array([7]));
    chownSync(snapshotFile(dir), 65534, 65534);
    assert.equal(cache.load(), null);
    assert.match(logs.join('\n'), /is owned by uid 65534, not by this user/);
  });

  it('creates its directory 0700 and refuses one that others could write or another user owns', () => {
    const parent = mkdtempSync(join(tmpdir(), 'snap-'));
    const fresh = join(parent, 'cache', 'snapshots');
    new SnapshotCache(fresh, ['v1'], () => {}).store(new Uint8Array([1]));
    assert.equal(statSync(fresh).mode & 0o777, 0o700);
    assert.equal(statSync(join(parent, 'cache')).mode & 0o777, 0o700);

    const shared = join(parent, 'shared');
    mkdirSync(shared);
    new SnapshotCache(shared, ['v1'], () => {}).store(new Uint8Array([1]));
    chmodSync(shared, 0o777);
    const logs: string[] = [];
    const cache = new SnapshotCache(shared, ['v1'], (m) => logs.push(m));
    assert.equal(cache.load(), null, 'a snapshot in a world-writable directory is not used');
    cache.store(new Uint8Array([2]));
    assert.equal(logs.length, 1, logs.join('\n'));
    assert.match(
      logs[0]!,
      /^memory snapshots are off: the snapshot directory .* is writable by group or others \(mode 777\)\. Point --snapshot-dir at a directory only you can write/,
    );
    if (process.getuid?.() === 0) {
      const foreign = join(parent, 'foreign');
      mkdirSync(foreign, { mode: 0o700 });
      chownSync(foreign, 65534, 65534);
      const foreignLogs: string[] = [];
      new SnapshotCache(foreign, ['v1'], (m) => foreignLogs.push(m)).store(new Uint8Array([3]));
      assert.deepEqual(readdirSync(foreign), [], 'nothing written into a directory another user owns');
      assert.match(foreignLogs.join('\n'), /owned by uid 65534/);
    }
  });

  it('defaults to a per-user cache directory, from the environment', () => {
    const dirOf = (env: Record<string, string>, argv: string[] = []) => (parseConfig(argv, env) as { config: Config }).config.snapshotDir;
    assert.equal(dirOf({ XDG_CACHE_HOME: '/x/cache', HOME: '/home/u' }), '/x/cache/pyodide-mcp/snapshots');
    assert.equal(dirOf({ HOME: '/home/u' }), '/home/u/.cache/pyodide-mcp/snapshots');
    assert.equal(
      dirOf({ XDG_CACHE_HOME: 'relative', HOME: '/home/u' }),
      '/home/u/.cache/pyodide-mcp/snapshots',
      'a relative XDG_CACHE_HOME is ignored',
    );
    assert.equal(dirOf({ HOME: '/home/u' }, ['--snapshot-dir', '/elsewhere']), '/elsewhere');
    assert.equal(dirOf({ HOME: '/home/u', PYODIDE_MCP_SNAPSHOT_DIR: 'none' }), null);
    assert.ok(!dirOf({})!.startsWith(tmpdir()), 'not in the shared temporary directory');
  });
});

describe('servers and snapshots', () => {
  it('the first server builds a snapshot, the next boots from it, a corrupt one is rebuilt', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'snap-e2e-'));
    const flags = ['--snapshot-dir', dir];
    const first = await startServer(flags);
    const a = await first.ok('execute_code', { code: 'x = 1\nx + 1' });
    assert.equal(a.result, '2');
    await eventually(async () => readdirSync(dir).some((f) => f.endsWith('.sha256')), 20_000, 'snapshot written');
    await first.close();

    const second = await startServer(flags);
    const b = await second.ok('execute_code', { code: 'import sys\nsys.version_info[:2]' });
    assert.equal(b.result, '(3, 14)');
    assert.match(second.stderr(), /booting sessions from the memory snapshot/);
    await second.close();

    const file = join(
      dir,
      readdirSync(dir).find((f) => f.endsWith('.snapshot'))!,
    );
    writeFileSync(file, 'garbage');
    const third = await startServer(flags);
    assert.equal((await third.ok('execute_code', { code: '6 * 7' })).result, '42');
    assert.match(third.stderr(), /does not match its checksum/);
    await eventually(async () => /snapshot stored/.test(third.stderr()), 20_000, 'snapshot rebuilt');
    await third.close();
  });
});
