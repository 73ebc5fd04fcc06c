import { type Lockfile } from '../src/python/distribution.js';
/** An invented pure-Python distribution: its files by path inside site-packages. */
export interface FakePackage {
    name: string;
    version: string;
    depends?: string[];
    /** e.g. {'inventedalpha/__init__.py': '…'}; the .dist-info files are added. */
    files: Record<string, string>;
}
/** A `py3-none-any` wheel of `pkg`: its file name and bytes. */
export declare function buildWheel(pkg: FakePackage): {
    fileName: string;
    bytes: Uint8Array;
};
/**
 * Writes the wheels of `packages` into `mirrorDir` and a lock (`lockPath`) that is the pinned pyodide-lock.json plus
 * them, each with its sha256. Returns the lock.
 */
export declare function writeMirror(mirrorDir: string, lockPath: string, packages: FakePackage[]): Lockfile;
/**
 * The invented preload set: `inventedalpha` (needs `inventedbeta`, reads a data file of its own) and `inventedheavy`
 * (`modules` modules of plain code imported by its __init__, standing in for a large pure-Python package such as
 * sympy, and a `lazy` module that nothing imports). Each records when it was imported.
 */
export declare function inventedPackages(modules?: number): FakePackage[];
/** What a server preloads to use the invented set. */
export declare const INVENTED_PRELOAD: string[];
