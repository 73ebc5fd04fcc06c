/**
 * What installing packages may write: the bytes and the number of files their archives hold, as the archives
 * themselves declare them (a zip's central directory). The file quota lifts itself for package installs by this much
 * and no more (file-quota.ts): user code can run during an install (an audit hook, a patched module of the loader),
 * and before this bound anything it wrote under the library directories meanwhile escaped the quota (measured: five
 * 900 kB files under a 2 MB session quota, written by an audit hook while a 1 kB wheel installed).
 *
 * The archives are the verified ones (the host checked each wheel's sha256 against the lock, or the server checked a
 * network wheel's against its index), so what they declare is what unpacking them writes. One that cannot be read
 * here counts as writing nothing: its files then count against the quota like any file.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

// Security: captured when the module loads, before user code exists. The footprint sets how much the quota lifts, and
// user code can replace the realm's prototypes and globals (DataView's getters, Math, Number): computed with theirs,
// a footprint could be made as large as they like.
const { apply } = Reflect;
const getUint16 = DataView.prototype.getUint16;
const getUint32 = DataView.prototype.getUint32;
const getBigUint64 = DataView.prototype.getBigUint64;
const subarray = Uint8Array.prototype.subarray;
const typedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype) as object;
const getter = (name: string) => Reflect.getOwnPropertyDescriptor(typedArrayPrototype, name)!.get!;
const bufferOf = getter('buffer');
const byteOffsetOf = getter('byteOffset');
const byteLengthOf = getter('byteLength');
const RealDataView = DataView;
const RealUint8Array = Uint8Array;
const toNumber = Number;
const isFinite = Number.isFinite;
const max = Math.max;
const min = Math.min;

const u16 = (view: DataView, at: number): number => apply(getUint16, view, [at, true]);
const u32 = (view: DataView, at: number): number => apply(getUint32, view, [at, true]);
const u64 = (view: DataView, at: number): number => toNumber(apply(getBigUint64, view, [at, true]));
const lengthOf = (bytes: Uint8Array): number => apply(byteLengthOf, bytes, []);
const viewOf = (bytes: Uint8Array): DataView =>
  new RealDataView(apply(bufferOf, bytes, []), apply(byteOffsetOf, bytes, []), lengthOf(bytes));

/** Bytes and files an install may write. */
export interface Footprint {
  bytes: number;
  files: number;
}

export const NO_FOOTPRINT: Footprint = { bytes: 0, files: 0 };

/** What each package adds besides its archive's files: Pyodide's INSTALLER and PYODIDE_SOURCE in its dist-info. */
export const PACKAGE_METADATA: Footprint = { bytes: 4096, files: 4 };

/** Reads `length` bytes at `offset` of the archive (fewer at its end). */
type ReadAt = (offset: number, length: number) => Uint8Array;

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL_ENTRY = 0x02014b50;
/** The end record is 22 bytes, followed by a comment of at most 65 535. */
const EOCD_SEARCH = 22 + 0xffff;

/** The footprint of a zip archive (a wheel, or a shared library's zip) held in memory. */
export function bufferFootprint(archive: Uint8Array): Footprint {
  return zipFootprint((offset, length) => apply(subarray, archive, [offset, offset + length]), lengthOf(archive));
}

/** The footprint of a zip archive on disk: only its end record and central directory are read. */
export function fileFootprint(path: string): Footprint {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return NO_FOOTPRINT;
  }
  try {
    const size = fstatSync(fd).size;
    return zipFootprint((offset, length) => {
      const buffer = new RealUint8Array(max(0, min(length, size - offset)));
      readSync(fd, buffer, 0, lengthOf(buffer), offset);
      return buffer;
    }, size);
  } finally {
    closeSync(fd);
  }
}

/** Sums the uncompressed sizes in the central directory; NO_FOOTPRINT for anything that is not a readable zip. */
function zipFootprint(read: ReadAt, size: number): Footprint {
  try {
    const directory = centralDirectory(read, size);
    if (!directory) return NO_FOOTPRINT;
    const entries = read(directory.offset, directory.size);
    const view = viewOf(entries);
    const length = lengthOf(entries);
    let at = 0;
    let bytes = 0;
    let files = 0;
    for (let i = 0; i < directory.entries; i++) {
      if (at + 46 > length || u32(view, at) !== CENTRAL_ENTRY) return NO_FOOTPRINT;
      const nameLength = u16(view, at + 28);
      const extraLength = u16(view, at + 30);
      const commentLength = u16(view, at + 32);
      let uncompressed = u32(view, at + 24);
      if (uncompressed === 0xffffffff) uncompressed = zip64Size(view, at + 46 + nameLength, extraLength) ?? Infinity;
      // A directory entry ("name/") makes a directory, not a file.
      if (nameLength > 0 && entries[at + 46 + nameLength - 1] !== 0x2f) {
        files++;
        bytes += uncompressed;
      }
      at += 46 + nameLength + extraLength + commentLength;
    }
    return isFinite(bytes) ? { bytes, files } : NO_FOOTPRINT;
  } catch {
    return NO_FOOTPRINT;
  }
}

/** Where the central directory is and how many entries it has, from the end record (zip64 when it says so). */
function centralDirectory(read: ReadAt, size: number): { offset: number; size: number; entries: number } | null {
  const tailStart = max(0, size - EOCD_SEARCH);
  const tail = read(tailStart, size - tailStart);
  const view = viewOf(tail);
  for (let at = lengthOf(tail) - 22; at >= 0; at--) {
    if (u32(view, at) !== EOCD) continue;
    const entries = u16(view, at + 10);
    const directorySize = u32(view, at + 12);
    const offset = u32(view, at + 16);
    if (entries !== 0xffff && offset !== 0xffffffff && directorySize !== 0xffffffff) {
      return { offset, size: directorySize, entries };
    }
    // Zip64: a locator just before the end record points to the zip64 end record.
    if (at < 20 || u32(view, at - 20) !== ZIP64_LOCATOR) return null;
    const record = read(u64(view, at - 20 + 8), 56);
    if (lengthOf(record) < 56) return null;
    const recordView = viewOf(record);
    if (u32(recordView, 0) !== ZIP64_EOCD) return null;
    return { entries: u64(recordView, 32), size: u64(recordView, 40), offset: u64(recordView, 48) };
  }
  return null;
}

/** The uncompressed size from an entry's zip64 extra field (id 1, whose first value it is when present). */
function zip64Size(view: DataView, start: number, length: number): number | null {
  for (let at = start; at + 4 <= start + length;) {
    const id = u16(view, at);
    const size = u16(view, at + 2);
    if (id === 1 && size >= 8) return u64(view, at + 4);
    at += 4 + size;
  }
  return null;
}
