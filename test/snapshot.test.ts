/** Memory snapshots: the cache rejects corrupt files, and servers build, reuse and rebuild them. */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SnapshotCache } from '../src/python/snapshot-cache.js';
import { eventually, startServer } from './helpers.js';

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
    const file = join(dir, readdirSync(dir).find((f) => f.endsWith('.snapshot'))!);
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
});

describe('servers and snapshots', () => {
  it('the first server builds a snapshot, the next boots from it, a corrupt one is rebuilt', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'snap-e2e-'));
    const flags = ['--snapshot-dir', dir, '--warm-sessions', '1'];
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

    const file = join(dir, readdirSync(dir).find((f) => f.endsWith('.snapshot'))!);
    writeFileSync(file, 'garbage');
    const third = await startServer(flags);
    assert.equal((await third.ok('execute_code', { code: '6 * 7' })).result, '42');
    assert.match(third.stderr(), /does not match its checksum/);
    await eventually(async () => /snapshot stored/.test(third.stderr()), 20_000, 'snapshot rebuilt');
    await third.close();
  });
});
