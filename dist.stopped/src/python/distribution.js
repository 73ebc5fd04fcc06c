/**
 * Which Pyodide distributions are installed, which wheels are present, and which distribution serves
 * the configured preload set, with the reason. The only host-side module that knows both exist.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { checkWheelDir } from './wheel-check.js';
const require = createRequire(import.meta.url);
export function modernDistDir() {
    return dirname(require.resolve('pyodide/package.json'));
}
export function legacyDistDir() {
    return join(dirname(require.resolve('@pyodide/pyodide/package.json')), 'dist');
}
/** Version of the pinned modern `pyodide` package. */
export function modernVersion() {
    return JSON.parse(readFileSync(join(modernDistDir(), 'package.json'), 'utf8')).version;
}
/** The pinned `pyodide` package's own pyodide-lock.json. */
export function pinnedLockFile() {
    return join(modernDistDir(), 'pyodide-lock.json');
}
/** A pyodide-lock.json: the pinned one by default, or the one --lock-file names. */
export function readModernLock(path = pinnedLockFile()) {
    return JSON.parse(readFileSync(path, 'utf8'));
}
/**
 * Whether a lock entry is pure Python: a `py3-none-any` wheel (no compiled extension, no shared library). Such a
 * package's whole state after import is Python objects in the WebAssembly memory plus its files, which is what
 * lets a memory snapshot hold it imported (src/sessions/warm-pool.ts).
 */
export function isPurePython(pkg) {
    return (pkg.package_type ?? 'package') === 'package' && /-none-any\.whl$/.test(pkg.file_name);
}
/** Canonical package name as the lock file spells it (`Pillow` → `pillow`, `python_dateutil` → `python-dateutil`). */
export function canonicalName(name) {
    return name.toLowerCase().replace(/[-_.]+/g, '-');
}
/**
 * Every lock entry needed to load `names`, dependencies included, in dependency order.
 * Throws a TypeError naming a package that the lock file does not know.
 */
export function wheelClosure(lock, names) {
    const byImport = new Map();
    for (const [key, pkg] of Object.entries(lock.packages))
        for (const imp of pkg.imports)
            byImport.set(imp, key);
    const seen = new Map();
    const visit = (name) => {
        const key = lock.packages[canonicalName(name)] ? canonicalName(name) : byImport.get(name);
        if (!key)
            throw new TypeError(`Package ${JSON.stringify(name)} is not part of Pyodide ${lock.info.python}'s package set.`);
        if (seen.has(key))
            return;
        const pkg = lock.packages[key];
        for (const dep of pkg.depends)
            visit(dep);
        seen.set(key, pkg);
    };
    names.forEach(visit);
    return [...seen.values()];
}
/** Lock entries of `names` (with dependencies) whose wheel is not in `wheelsDir`. */
export function missingWheels(lock, names, wheelsDir) {
    return wheelClosure(lock, names).filter((pkg) => !existsSync(join(wheelsDir, pkg.file_name)));
}
/** The legacy distribution's packages.json, reduced to what we read. */
function readLegacySpec() {
    return JSON.parse(readFileSync(join(legacyDistDir(), 'packages.json'), 'utf8'));
}
/** Packages (and import names) that the legacy distribution ships. */
export function legacyPackages() {
    const spec = readLegacySpec();
    return new Set([...Object.keys(spec.dependencies), ...Object.keys(spec.import_name_to_package_name)]);
}
/** The command that fills the per-user wheel cache; named in every message that tells a user how to get modern. */
export const FETCH_COMMAND = 'npx pyodide-mcp fetch-wheels';
/**
 * Picks the distribution: the modern runtime when one of `dirs` (in order) holds every wheel `preload` needs, each
 * matching the lock's sha256 (or nothing is preloaded), otherwise the legacy offline scientific distribution.
 * `requested` forces one; an impossible request throws a TypeError that says what is missing and how to fix it.
 * `lockSource` is the path of the pyodide-lock.json to use (the pinned one by default, --lock-file), or a Lockfile
 * object (tests; sessions then load by the pinned lock).
 */
export function chooseDistribution(requested, preload, dirs, lockSource = pinnedLockFile()) {
    // A path is what sessions load packages by too; a Lockfile object (tests) leaves them on the pinned lock.
    const lockFile = typeof lockSource === 'string' ? lockSource : pinnedLockFile();
    const lock = typeof lockSource === 'string' ? readModernLock(lockSource) : lockSource;
    const needed = wheelClosure(lock, preload);
    // The first directory that covers the preload set; with nothing to preload, the one offering the most packages.
    const checks = [];
    let chosen;
    for (const dir of dirs) {
        const check = checkWheelDir(dir, lock);
        checks.push(check);
        if (preload.length > 0 && needed.every((pkg) => check.verified.has(pkg.file_name))) {
            chosen = check;
            break;
        }
    }
    if (preload.length === 0)
        chosen = checks.reduce((a, b) => (a && a.verified.size >= b.verified.size ? a : b), undefined);
    const refused = checks.flatMap((check) => check.refused);
    const where = dirs.map((dir) => dir.path).join(' or ');
    const missingCount = Math.min(...checks.map((check) => needed.filter((pkg) => !check.verified.has(pkg.file_name)).length), needed.length);
    const refusedNote = refused.length > 0 ? `; refused: ${refused.slice(0, 3).join('; ')}${refused.length > 3 ? '; …' : ''}` : '';
    const modern = (reason) => ({
        kind: 'modern',
        distDir: modernDistDir(),
        lockFile,
        wheelsDir: chosen && chosen.verified.size > 0 ? chosen.dir.path : null,
        wheelFiles: chosen ? [...chosen.verified].sort() : [],
        reason,
    });
    const shipped = legacyPackages();
    const legacyReady = preload.every((name) => shipped.has(name));
    const legacy = (reason) => ({
        kind: 'legacy',
        distDir: legacyDistDir(),
        lockFile: null,
        wheelsDir: null,
        wheelFiles: [],
        reason,
    });
    const modernReady = preload.length === 0 || chosen !== undefined;
    if (requested === 'modern') {
        if (!modernReady) {
            const missing = needed.filter((pkg) => !checks.some((check) => check.verified.has(pkg.file_name)));
            throw new TypeError(`--runtime modern needs ${missingCount} verified wheel(s) not found in ${where} (${missing
                .map((p) => p.file_name)
                .slice(0, 5)
                .join(', ')}${missing.length > 5 ? ', …' : ''})${refusedNote}. Run \`${FETCH_COMMAND}\` or use --preload none / --runtime auto.`);
        }
        return modern('requested with --runtime modern');
    }
    if (requested === 'legacy') {
        if (!legacyReady)
            throw new TypeError(`--runtime legacy cannot preload ${preload.filter((n) => !shipped.has(n)).join(', ')}: the legacy distribution does not ship it.`);
        return legacy('requested with --runtime legacy');
    }
    if (modernReady) {
        return modern(preload.length === 0
            ? 'nothing to preload, so the newest runtime is used'
            : `every wheel needed for ${preload.join(', ')} is in ${chosen.dir.path}, verified against ${lockFile === pinnedLockFile() ? 'pyodide-lock.json' : lockFile}`);
    }
    if (legacyReady) {
        return legacy(`${missingCount} modern wheel(s) needed for ${preload.join(', ')} are not in ${where}${refusedNote}; ` +
            `the bundled offline scientific distribution (Pyodide 0.17.1, Python 3.8) ships them all. ` +
            `For Python ${lock.info.python}: run \`${FETCH_COMMAND}\` once (downloads them from the Pyodide CDN) and restart the server`);
    }
    throw new TypeError(`No installed distribution can preload ${preload.join(', ')}: run \`${FETCH_COMMAND} --preload ${preload.join(',')}\` or change --preload.`);
}
/**
 * Python of the legacy distribution. 0.17.1 records it in no metadata file (only inside its wasm); the package is
 * pinned exactly, and test/e2e checks that a booted session reports this same version.
 */
const LEGACY_PYTHON = '3.8.2';
/** Reads the facts of `distribution` from its own metadata (package.json, the lock file or packages.json). */
export function distributionFacts(distribution, preload) {
    if (distribution.kind === 'modern') {
        const lock = readModernLock(distribution.lockFile ?? undefined);
        // Only the wheels verified when the distribution was chosen: the ones sessions may load.
        const present = new Set(distribution.wheelFiles);
        return {
            python: lock.info.python,
            pyodide: modernVersion(),
            packages: Object.fromEntries(preload.map((name) => [name, lock.packages[canonicalName(name)]?.version ?? 'unknown'])),
            available: Object.entries(lock.packages)
                .filter(([, pkg]) => present.has(pkg.file_name))
                .map(([name]) => name)
                .sort(),
        };
    }
    const spec = readLegacySpec();
    const pkg = JSON.parse(readFileSync(join(legacyDistDir(), '..', 'package.json'), 'utf8'));
    return {
        python: LEGACY_PYTHON,
        pyodide: pkg.version,
        packages: Object.fromEntries(preload.map((name) => [name, spec.versions[spec.import_name_to_package_name[name] ?? name] ?? 'unknown'])),
        available: Object.keys(spec.dependencies).sort(),
    };
}
