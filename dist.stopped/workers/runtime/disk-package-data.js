/**
 * Package data read from disk on demand, for the LEGACY distribution (Pyodide 0.17.1).
 *
 * 0.17.1's package format is Emscripten's LZ4 file packager: `<name>.data` is a list of LZ4-compressed 2 KB chunks,
 * and every file of the package is an FS node that decompresses the chunks it covers when it is read, from
 * `compressedData.data`, the whole `.data` file held in memory for as long as the session lives. For the scientific
 * stack that is ~60 packages and 72 MB of compressed bytes in every session, almost all of them never read again
 * after the imports.
 *
 * The read path only ever calls `compressedData.data.subarray(start, end)` and copies out of the result at once
 * (pyodide.asm.js, `LZ4.stream_ops.read`), and `LZ4.loadPackage` carves its two chunk-cache buffers out of the tail
 * of `data` (from `cachedOffset` on). So `data` can be an object with that one method: the tail is real memory
 * (2 chunks), everything before it is read from the file with a positional read, through a small window so that
 * sequential reads (an import reading a module) cost one system call per 64 KB instead of one per chunk. The bytes
 * then live in the OS page cache, shared by every session process, instead of in each session's heap.
 *
 * Security: the object is reachable from Python (through the FS node), so it only reads the one descriptor it was
 * made for, within that file's size; the descriptor was opened read-only inside the distribution by the loader.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
/** Compressed bytes fetched per system call when a read misses the window. */
const WINDOW_BYTES = 64 * 1024;
/**
 * The last bytes read, of whichever package: one window for all of them (imports read one file at a time), so a
 * session keeps 64 KB of package bytes between reads, not 64 KB per package.
 */
let window = { fd: -1, start: 0, bytes: new Uint8Array(0) };
/**
 * The bytes of one `.data` file, read on demand. `cachedOffset` is where the file's chunk-cache area starts (the
 * packager reserves it at the end of the file); reads there are served from memory and may be written through.
 */
export function diskPackageBytes(file, cachedOffset) {
    const fd = openSync(file, 'r');
    let size;
    try {
        size = fstatSync(fd).size;
        if (!Number.isSafeInteger(cachedOffset) || cachedOffset < 0 || cachedOffset > size) {
            throw new Error(`legacy runtime: ${file} has no chunk cache at ${cachedOffset} (size ${size})`);
        }
    }
    catch (error) {
        closeSync(fd);
        throw error;
    }
    const cache = new Uint8Array(size - cachedOffset);
    const fill = (start, end) => {
        const length = Math.max(end - start, Math.min(WINDOW_BYTES, cachedOffset - start));
        // A new array each time: a subarray handed out earlier stays valid (the reader copies out of it at once anyway).
        const bytes = new Uint8Array(length);
        let done = 0;
        while (done < length) {
            const read = readSync(fd, bytes, done, length - done, start + done);
            if (read === 0)
                throw new Error(`legacy runtime: ${file} ended at ${start + done} (expected ${start + length})`);
            done += read;
        }
        window = { fd, start, bytes };
    };
    return {
        length: size,
        subarray(start, end) {
            if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start || end > size) {
                throw new RangeError(`legacy runtime: bytes ${start}..${end} are outside ${file} (${size} bytes)`);
            }
            if (start >= cachedOffset)
                return cache.subarray(start - cachedOffset, end - cachedOffset);
            if (end > cachedOffset)
                throw new RangeError(`legacy runtime: bytes ${start}..${end} straddle the chunk cache of ${file}`);
            if (window.fd !== fd || start < window.start || end > window.start + window.bytes.length)
                fill(start, end);
            return window.bytes.subarray(start - window.start, end - window.start);
        },
    };
}
