import type { RuntimeKind } from '../contract.js';
import { type WheelDir } from './wheel-check.js';
/** A package entry of pyodide-lock.json, reduced to what we read. */
export interface LockPackage {
    name: string;
    version: string;
    file_name: string;
    sha256: string;
    depends: string[];
    imports: string[];
    /** 'package' (a wheel) or 'shared_library' (a zip of .so files other packages link against). */
    package_type?: string;
}
export interface Lockfile {
    info: {
        python: string;
        [key: string]: unknown;
    };
    packages: Record<string, LockPackage>;
}
/** The distribution a server will boot its sessions with. */
export interface Distribution {
    kind: RuntimeKind;
    distDir: string;
    /** Modern runtime: the pyodide-lock.json it loads packages by (the pinned one unless --lock-file names another); null for legacy. */
    lockFile: string | null;
    wheelsDir: string | null;
    /** Wheels in `wheelsDir` verified against the lock: the only ones sessions may load. */
    wheelFiles: string[];
    /** Human-readable reason this distribution was picked. */
    reason: string;
}
export declare function modernDistDir(): string;
export declare function legacyDistDir(): string;
/** Version of the pinned modern `pyodide` package. */
export declare function modernVersion(): string;
/** The pinned `pyodide` package's own pyodide-lock.json. */
export declare function pinnedLockFile(): string;
/** A pyodide-lock.json: the pinned one by default, or the one --lock-file names. */
export declare function readModernLock(path?: string): Lockfile;
/**
 * Whether a lock entry is pure Python: a `py3-none-any` wheel (no compiled extension, no shared library). Such a
 * package's whole state after import is Python objects in the WebAssembly memory plus its files, which is what
 * lets a memory snapshot hold it imported (src/sessions/warm-pool.ts).
 */
export declare function isPurePython(pkg: LockPackage): boolean;
/** Canonical package name as the lock file spells it (`Pillow` → `pillow`, `python_dateutil` → `python-dateutil`). */
export declare function canonicalName(name: string): string;
/**
 * Every lock entry needed to load `names`, dependencies included, in dependency order.
 * Throws a TypeError naming a package that the lock file does not know.
 */
export declare function wheelClosure(lock: Lockfile, names: string[]): LockPackage[];
/** Lock entries of `names` (with dependencies) whose wheel is not in `wheelsDir`. */
export declare function missingWheels(lock: Lockfile, names: string[], wheelsDir: string): LockPackage[];
/** Packages (and import names) that the legacy distribution ships. */
export declare function legacyPackages(): Set<string>;
/** The command that fills the per-user wheel cache; named in every message that tells a user how to get modern. */
export declare const FETCH_COMMAND = "npx pyodide-mcp fetch-wheels";
/**
 * Picks the distribution: the modern runtime when one of `dirs` (in order) holds every wheel `preload` needs, each
 * matching the lock's sha256 (or nothing is preloaded), otherwise the legacy offline scientific distribution.
 * `requested` forces one; an impossible request throws a TypeError that says what is missing and how to fix it.
 * `lockSource` is the path of the pyodide-lock.json to use (the pinned one by default, --lock-file), or a Lockfile
 * object (tests; sessions then load by the pinned lock).
 */
export declare function chooseDistribution(requested: 'auto' | RuntimeKind, preload: string[], dirs: WheelDir[], lockSource?: Lockfile | string): Distribution;
/** What a distribution offers, known without booting it: what server_info reports before any session is up. */
export interface DistributionFacts {
    python: string;
    pyodide: string;
    /** Versions of the preloaded packages, by the names --preload gives. */
    packages: Record<string, string>;
    /** Packages it can load offline. */
    available: string[];
}
/** Reads the facts of `distribution` from its own metadata (package.json, the lock file or packages.json). */
export declare function distributionFacts(distribution: Distribution, preload: string[]): DistributionFacts;
