/** What `LZ4.stream_ops.read` and `LZ4.loadPackage` use of `compressedData.data`. */
export interface PackageBytes {
    readonly length: number;
    subarray(start: number, end: number): Uint8Array;
}
/**
 * The bytes of one `.data` file, read on demand. `cachedOffset` is where the file's chunk-cache area starts (the
 * packager reserves it at the end of the file); reads there are served from memory and may be written through.
 */
export declare function diskPackageBytes(file: string, cachedOffset: number): PackageBytes;
