/**
 * The files of a zip archive (a wheel, a shared-library package) whose names pass a filter, inflated with Node's own
 * zlib. Why not a zip library: the one the tests use (fflate) inflates in JavaScript, and the server reads every
 * compiled wheel's libraries when it starts (em-snippets.ts): measured on 38 MB of libraries (14.6 MB zipped), fflate
 * took 460-700 ms, Node's native inflate 160-220 ms. Only what wheels use is read: stored or deflated entries, no
 * zip64, no encryption; anything else is an error naming it. Format: PKWARE APPNOTE.TXT, sections 4.3.7, 4.3.12, 4.3.16.
 */
import { inflateRawSync } from 'node:zlib';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
/** Largest library inflated: far above any real one (numpy's largest is a few MB), bounds a crafted archive. */
const MAX_ENTRY_BYTES = 512 * 1024 * 1024;

/** Every entry of `archive` whose name `wanted` accepts, inflated. Throws on what is not a readable zip. */
export function zipEntries(archive: Uint8Array, wanted: (name: string) => boolean): Record<string, Uint8Array> {
  const view = Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength);
  // The end record is in the last 22 + 65535 (comment) bytes.
  let end = -1;
  for (let at = view.length - 22; at >= Math.max(0, view.length - 22 - 0xffff); at--) {
    if (view.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new Error('no zip end record');
  const count = view.readUInt16LE(end + 10);
  let at = view.readUInt32LE(end + 16);
  if (count === 0xffff || at === 0xffffffff) throw new Error('zip64 archives are not read');
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < count; i++) {
    if (at + 46 > view.length || view.readUInt32LE(at) !== CENTRAL_FILE_HEADER) throw new Error('a broken zip central directory');
    const flags = view.readUInt16LE(at + 8);
    const method = view.readUInt16LE(at + 10);
    const compressedSize = view.readUInt32LE(at + 20);
    const size = view.readUInt32LE(at + 24);
    const nameLength = view.readUInt16LE(at + 28);
    const local = view.readUInt32LE(at + 42);
    const name = view.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + view.readUInt16LE(at + 30) + view.readUInt16LE(at + 32);
    if (!wanted(name)) continue;
    if (flags & 1) throw new Error(`${name} is encrypted`);
    if (size > MAX_ENTRY_BYTES) throw new Error(`${name} is larger than ${MAX_ENTRY_BYTES} bytes`);
    if (local + 30 > view.length || view.readUInt32LE(local) !== LOCAL_FILE_HEADER)
      throw new Error(`a broken zip entry header for ${name}`);
    const start = local + 30 + view.readUInt16LE(local + 26) + view.readUInt16LE(local + 28);
    if (start + compressedSize > view.length) throw new Error(`${name} runs past the end of the archive`);
    const data = view.subarray(start, start + compressedSize);
    if (method === 0) files[name] = new Uint8Array(data);
    else if (method === 8) files[name] = inflateRawSync(data, { maxOutputLength: Math.max(size, 1) });
    else throw new Error(`${name} uses zip compression method ${method}`);
  }
  return files;
}
