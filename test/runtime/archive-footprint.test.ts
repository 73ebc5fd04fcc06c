/**
 * What an install may write, the bound of the file quota's install window (workers/thread/archive-footprint.ts,
 * workers/thread/runtime/legacy-footprint.ts): a zip's declared sizes against what unpacking it gives, zip64 fields,
 * anything unreadable as nothing, and a legacy package's files from its loader script, dependencies included.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { legacyDistDir, modernDistDir } from '../../src/python/distribution.js';
import { bufferFootprint, fileFootprint, NO_FOOTPRINT } from '../../workers/thread/archive-footprint.js';
import { legacyInstallFootprint } from '../../workers/thread/runtime/legacy-footprint.js';

const dir = mkdtempSync(path.join(tmpdir(), 'footprint-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** What unpacking gives: the bytes and number of the files (directories left out). */
function unpacked(archive: Uint8Array): { bytes: number; files: number } {
  const entries = Object.entries(unzipSync(archive)).filter(([name]) => !name.endsWith('/'));
  return { bytes: entries.reduce((sum, [, data]) => sum + data.byteLength, 0), files: entries.length };
}

describe('zip footprint', () => {
  it("matches what unpacking gives, for Pyodide's own python_stdlib.zip, from disk and from memory", () => {
    const file = path.join(modernDistDir(), 'python_stdlib.zip');
    const archive = readFileSync(file);
    const expected = unpacked(archive);
    assert.ok(expected.files > 100 && expected.bytes > statSync(file).size, JSON.stringify(expected));
    assert.deepEqual(fileFootprint(file), expected);
    assert.deepEqual(bufferFootprint(archive), expected);
  });

  it('counts stored and deflated files, not directory entries, past an archive comment', () => {
    const archive = zipSync(
      {
        'pkg/': {},
        'pkg/__init__.py': [strToU8('x = 1\n'.repeat(1000)), { level: 9 }],
        'pkg/blob.bin': [new Uint8Array(70_000).fill(7), { level: 0 }],
      },
      { comment: 'a comment the end record is searched past' },
    );
    assert.deepEqual(bufferFootprint(archive), { bytes: 6000 + 70_000, files: 2 });
    const file = path.join(dir, 'pkg.whl');
    writeFileSync(file, archive);
    assert.deepEqual(fileFootprint(file), { bytes: 76_000, files: 2 });
  });

  it('reads zip64 end records and sizes', () => {
    assert.deepEqual(bufferFootprint(zip64Archive('big.bin', 5_000_000_000)), { bytes: 5_000_000_000, files: 1 });
  });

  it('anything unreadable writes nothing unquota’d: a truncated zip, not a zip, a missing file', () => {
    const archive = zipSync({ 'a.py': strToU8('a = 1\n') });
    assert.deepEqual(bufferFootprint(archive.subarray(0, archive.byteLength - 30)), NO_FOOTPRINT);
    assert.deepEqual(bufferFootprint(new Uint8Array(1000)), NO_FOOTPRINT);
    assert.deepEqual(bufferFootprint(new Uint8Array(0)), NO_FOOTPRINT);
    assert.deepEqual(fileFootprint(path.join(dir, 'no-such.whl')), NO_FOOTPRINT);
  });

  it("is computed with the built-ins of the module's load, not what user code put on the prototypes later", () => {
    const archive = zipSync({ 'a.py': strToU8('a = 1\n') });
    const original = DataView.prototype.getUint32;
    DataView.prototype.getUint32 = function () {
      return 0x7fffffff;
    };
    try {
      assert.deepEqual(bufferFootprint(archive), { bytes: 6, files: 1 });
    } finally {
      DataView.prototype.getUint32 = original;
    }
  });
});

describe('legacy package footprint', () => {
  const distDir = legacyDistDir();
  const { dependencies } = JSON.parse(readFileSync(path.join(distDir, 'packages.json'), 'utf8')) as {
    dependencies: Record<string, string[]>;
  };

  it("numpy: its loader script's files, more bytes than its compressed data", () => {
    const footprint = legacyInstallFootprint(distDir, dependencies, () => ({}))(['numpy']);
    assert.ok(footprint.files > 100, JSON.stringify(footprint));
    assert.ok(footprint.bytes > statSync(path.join(distDir, 'numpy.data')).size, JSON.stringify(footprint));
  });

  it('pandas brings its dependencies, less what is loaded; the table is copied at the start', () => {
    const table = structuredClone(dependencies);
    let loaded: Record<string, string> = {};
    const footprint = legacyInstallFootprint(distDir, table, () => loaded);
    const numpy = footprint(['numpy']);
    const pandas = footprint(['pandas']);
    assert.ok(table.pandas!.includes('numpy'));
    assert.ok(pandas.bytes > numpy.bytes && pandas.files > numpy.files);
    loaded = { numpy: 'default channel' };
    const withoutNumpy = footprint(['pandas']);
    assert.equal(withoutNumpy.bytes, pandas.bytes - numpy.bytes);
    // Editing the table afterwards (user code can reach 0.17's) changes nothing.
    table.pandas!.push(...Object.keys(table));
    assert.deepEqual(footprint(['pandas']), withoutNumpy);
  });
});

/** A zip64 archive of one entry declaring `size` bytes (sizes in its zip64 extra field; no data: only the directory is read). */
function zip64Archive(name: string, size: number): Uint8Array {
  const nameBytes = strToU8(name);
  const extra = new DataView(new ArrayBuffer(12));
  extra.setUint16(0, 1, true);
  extra.setUint16(2, 8, true);
  extra.setBigUint64(4, BigInt(size), true);
  const entry = new DataView(new ArrayBuffer(46));
  entry.setUint32(0, 0x02014b50, true);
  entry.setUint32(20, 0xffffffff, true);
  entry.setUint32(24, 0xffffffff, true);
  entry.setUint16(28, nameBytes.byteLength, true);
  entry.setUint16(30, 12, true);
  const directory = concat(new Uint8Array(entry.buffer), nameBytes, new Uint8Array(extra.buffer));
  const record = new DataView(new ArrayBuffer(56));
  record.setUint32(0, 0x06064b50, true);
  record.setBigUint64(24, 1n, true);
  record.setBigUint64(32, 1n, true);
  record.setBigUint64(40, BigInt(directory.byteLength), true);
  record.setBigUint64(48, 0n, true);
  const locator = new DataView(new ArrayBuffer(20));
  locator.setUint32(0, 0x07064b50, true);
  locator.setBigUint64(8, BigInt(directory.byteLength), true);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, 0xffff, true);
  end.setUint16(10, 0xffff, true);
  end.setUint32(12, 0xffffffff, true);
  end.setUint32(16, 0xffffffff, true);
  return concat(directory, new Uint8Array(record.buffer), new Uint8Array(locator.buffer), new Uint8Array(end.buffer));
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}
