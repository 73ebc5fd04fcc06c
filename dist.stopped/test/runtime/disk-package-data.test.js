/**
 * Package data read on demand (workers/runtime/disk-package-data.ts): what LZ4's read path asks of `data` comes
 * back byte for byte from the file, the chunk-cache tail is writable memory of its own, and nothing outside the
 * file can be asked for.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { diskPackageBytes } from '../../workers/runtime/disk-package-data.js';
describe('package data read from disk on demand', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pkgdata-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const CACHE = 4096;
    const content = randomBytes(300_000);
    const file = path.join(dir, 'pkg.data');
    writeFileSync(file, content);
    const cachedOffset = content.length - CACHE;
    it('returns the bytes of any range before the cache, in order and out of order', () => {
        const data = diskPackageBytes(file, cachedOffset);
        assert.equal(data.length, content.length);
        const ranges = [
            [0, 2048],
            [2048, 4000],
            [70_000, 72_048], // past the first window
            [10, 20], // back again
            [cachedOffset - 100, cachedOffset],
            [5, 5],
            [0, 200_000], // larger than a window
        ];
        for (const [start, end] of ranges)
            assert.deepEqual(Buffer.from(data.subarray(start, end)), content.subarray(start, end));
    });
    it('serves the two chunk caches from memory that can be written, separately per package', () => {
        const a = diskPackageBytes(file, cachedOffset);
        const b = diskPackageBytes(file, cachedOffset);
        const chunk = a.subarray(cachedOffset, cachedOffset + 2048);
        chunk.fill(7);
        assert.equal(a.subarray(cachedOffset, cachedOffset + 2048)[100], 7);
        assert.equal(b.subarray(cachedOffset, cachedOffset + 2048)[100], 0);
        // Reads of the file are unaffected by what was written to a cache.
        assert.deepEqual(Buffer.from(a.subarray(0, 16)), content.subarray(0, 16));
    });
    it('refuses ranges outside the file, reversed or straddling the cache, and a cache offset past the end', () => {
        const data = diskPackageBytes(file, cachedOffset);
        for (const [start, end] of [
            [-1, 10],
            [0, content.length + 1],
            [20, 10],
            [cachedOffset - 10, cachedOffset + 10],
            [0.5, 10],
        ]) {
            assert.throws(() => data.subarray(start, end), RangeError, `${start}..${end}`);
        }
        assert.throws(() => diskPackageBytes(file, content.length + 1), /no chunk cache/);
        assert.throws(() => diskPackageBytes(path.join(dir, 'missing.data'), 0), /ENOENT/);
    });
});
