/**
 * Which Pyodide distributions are installed, which wheels are present, and which distribution serves
 * the configured preload set, with the reason. The only host-side module that knows both exist.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { RuntimeKind } from '../wire/contract.js';
import { checkWheelDir, type WheelDir, type WheelDirCheck } from './wheel-check.js';
import { UsageError } from '../errors.js';
import { readEmSnippets, type EmSnippets } from './em-snippets.js';

const require = createRequire(import.meta.url);

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
  info: { python: string; [key: string]: unknown };
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
  /** Modern runtime: the JavaScript snippets of those wheels' libraries, compiled into every session's loader. */
  emSnippets: EmSnippets;
  /** Human-readable reason this distribution was picked. */
  reason: string;
}

const NO_SNIPPETS: EmSnippets = { sources: [], problems: [] };

/** What the server logs at start about the distribution it picked. */
export function distributionLog(distribution: Distribution, preload: string[]): string[] {
  const { sources, problems } = distribution.emSnippets;
  return [
    `distribution: ${distribution.kind} (${distribution.reason}); preload: ${preload.join(', ') || 'none'}`,
    ...(sources.length > 0
      ? [`compiled libraries carry ${sources.length} JavaScript snippet(s), compiled into every session's loader`]
      : []),
    ...problems.map((problem) => `JavaScript snippets not read (that library will not load): ${problem}`),
  ];
}

export function modernDistDir(): string {
  return dirname(require.resolve('pyodide/package.json'));
}

export function legacyDistDir(): string {
  return join(dirname(require.resolve('@pyodide/pyodide/package.json')), 'dist');
}

/** Version of the pinned modern `pyodide` package. */
export function modernVersion(): string {
  return (JSON.parse(readFileSync(join(modernDistDir(), 'package.json'), 'utf8')) as { version: string }).version;
}

/** The pinned `pyodide` package's own pyodide-lock.json. */
export function pinnedLockFile(): string {
  return join(modernDistDir(), 'pyodide-lock.json');
}

/** A pyodide-lock.json: the pinned one by default, or the one --lock-file names. */
export function readModernLock(path = pinnedLockFile()): Lockfile {
  return JSON.parse(readFileSync(path, 'utf8')) as Lockfile;
}

/**
 * Whether a lock entry is pure Python: a `py3-none-any` wheel (no compiled extension, no shared library). Such a
 * package's whole state after import is Python objects in the WebAssembly memory plus its files, which is what
 * lets a memory snapshot hold it imported (src/sessions/warm-pool.ts).
 */
export function isPurePython(pkg: LockPackage): boolean {
  return (pkg.package_type ?? 'package') === 'package' && /-none-any\.whl$/.test(pkg.file_name);
}

/** Canonical package name as the lock file spells it (`Pillow` → `pillow`, `python_dateutil` → `python-dateutil`). */
export function canonicalName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/**
 * Every lock entry needed to load `names`, dependencies included, in dependency order.
 * Throws a UsageError naming a package that the lock file does not know.
 */
export function wheelClosure(lock: Lockfile, names: string[]): LockPackage[] {
  const byImport = new Map<string, string>();
  for (const [key, pkg] of Object.entries(lock.packages)) for (const imp of pkg.imports) byImport.set(imp, key);
  const seen = new Map<string, LockPackage>();
  const visit = (name: string) => {
    const key = lock.packages[canonicalName(name)] ? canonicalName(name) : byImport.get(name);
    if (!key) throw new UsageError(`Package ${JSON.stringify(name)} is not part of Pyodide ${lock.info.python}'s package set.`);
    if (seen.has(key)) return;
    const pkg = lock.packages[key]!;
    for (const dep of pkg.depends) visit(dep);
    seen.set(key, pkg);
  };
  names.forEach(visit);
  return [...seen.values()];
}

/** Lock entries of `names` (with dependencies) whose wheel is not in `wheelsDir`. */
export function missingWheels(lock: Lockfile, names: string[], wheelsDir: string): LockPackage[] {
  return wheelClosure(lock, names).filter((pkg) => !existsSync(join(wheelsDir, pkg.file_name)));
}

/** The legacy distribution's packages.json, reduced to what we read. */
function readLegacySpec() {
  return JSON.parse(readFileSync(join(legacyDistDir(), 'packages.json'), 'utf8')) as {
    dependencies: Record<string, string[]>;
    import_name_to_package_name: Record<string, string>;
    versions: Record<string, string>;
  };
}

/** Packages (and import names) that the legacy distribution ships. */
export function legacyPackages(): Set<string> {
  const spec = readLegacySpec();
  return new Set([...Object.keys(spec.dependencies), ...Object.keys(spec.import_name_to_package_name)]);
}

/** The command that fills the per-user wheel cache; named in every message that tells a user how to get modern. */
export const FETCH_COMMAND = 'npx pyodide-mcp fetch-wheels';

/**
 * Picks the distribution: the modern runtime when one of `dirs` (in order) holds every wheel `preload` needs, each
 * matching the lock's sha256 (or nothing is preloaded), otherwise the legacy offline scientific distribution.
 * `requested` forces one; an impossible request throws a UsageError that says what is missing and how to fix it.
 * `lockSource` is the path of the pyodide-lock.json to use (the pinned one by default, --lock-file), or a Lockfile
 * object (tests; sessions then load by the pinned lock).
 */
export function chooseDistribution(
  requested: 'auto' | RuntimeKind,
  preload: string[],
  dirs: WheelDir[],
  lockSource: Lockfile | string = pinnedLockFile(),
): Distribution {
  // A path is what sessions load packages by too; a Lockfile object (tests) leaves them on the pinned lock.
  const lockFile = typeof lockSource === 'string' ? lockSource : pinnedLockFile();
  const lock = typeof lockSource === 'string' ? readModernLock(lockSource) : lockSource;
  const needed = wheelClosure(lock, preload);
  // The first directory that covers the preload set; with nothing to preload, the one offering the most packages.
  const checks: WheelDirCheck[] = [];
  let chosen: WheelDirCheck | undefined;
  for (const dir of dirs) {
    const check = checkWheelDir(dir, lock);
    checks.push(check);
    if (preload.length > 0 && needed.every((pkg) => check.verified.has(pkg.file_name))) {
      chosen = check;
      break;
    }
  }
  if (preload.length === 0)
    chosen = checks.reduce<WheelDirCheck | undefined>((a, b) => (a && a.verified.size >= b.verified.size ? a : b), undefined);
  const refused = checks.flatMap((check) => check.refused);
  const where = dirs.map((dir) => dir.path).join(' or ');
  const missingCount = Math.min(...checks.map((check) => needed.filter((pkg) => !check.verified.has(pkg.file_name)).length), needed.length);
  const refusedNote = refused.length > 0 ? `; refused: ${refused.slice(0, 3).join('; ')}${refused.length > 3 ? '; …' : ''}` : '';

  const modern = (reason: string): Distribution => ({
    kind: 'modern',
    distDir: modernDistDir(),
    lockFile,
    wheelsDir: chosen && chosen.verified.size > 0 ? chosen.dir.path : null,
    wheelFiles: chosen ? [...chosen.verified].sort() : [],
    emSnippets: chosen && chosen.verified.size > 0 ? readEmSnippets(chosen.dir.path, [...chosen.verified].sort()) : NO_SNIPPETS,
    reason,
  });
  const shipped = legacyPackages();
  const legacyReady = preload.every((name) => shipped.has(name));
  const legacy = (reason: string): Distribution => ({
    kind: 'legacy',
    distDir: legacyDistDir(),
    lockFile: null,
    wheelsDir: null,
    wheelFiles: [],
    emSnippets: NO_SNIPPETS,
    reason,
  });
  const modernReady = preload.length === 0 || chosen !== undefined;

  if (requested === 'modern') {
    if (!modernReady) {
      const missing = needed.filter((pkg) => !checks.some((check) => check.verified.has(pkg.file_name)));
      throw new UsageError(
        `--runtime modern needs ${missingCount} verified wheel(s) not found in ${where} (${missing
          .map((p) => p.file_name)
          .slice(0, 5)
          .join(', ')}${missing.length > 5 ? ', …' : ''})${refusedNote}. Run \`${FETCH_COMMAND}\` or use --preload none / --runtime auto.`,
      );
    }
    return modern('requested with --runtime modern');
  }
  if (requested === 'legacy') {
    if (!legacyReady)
      throw new UsageError(
        `--runtime legacy cannot preload ${preload.filter((n) => !shipped.has(n)).join(', ')}: the legacy distribution does not ship it.`,
      );
    return legacy('requested with --runtime legacy');
  }
  if (modernReady) {
    return modern(
      preload.length === 0
        ? 'nothing to preload, so the newest runtime is used'
        : `every wheel needed for ${preload.join(', ')} is in ${chosen!.dir.path}, verified against ${lockFile === pinnedLockFile() ? 'pyodide-lock.json' : lockFile}`,
    );
  }
  if (legacyReady) {
    return legacy(
      `${missingCount} modern wheel(s) needed for ${preload.join(', ')} are not in ${where}${refusedNote}; ` +
        `the bundled offline scientific distribution (Pyodide 0.17.1, Python 3.8) ships them all. ` +
        `For Python ${lock.info.python}: run \`${FETCH_COMMAND}\` once (downloads them from the Pyodide CDN) and restart the server`,
    );
  }
  throw new UsageError(
    `No installed distribution can preload ${preload.join(', ')}: run \`${FETCH_COMMAND} --preload ${preload.join(',')}\` or change --preload.`,
  );
}

/**
 * Python of the legacy distribution. 0.17.1 records it in no metadata file (only inside its wasm); the package is
 * pinned exactly, and test/e2e checks that a booted session reports this same version.
 */
const LEGACY_PYTHON = '3.8.2';

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
export function distributionFacts(distribution: Distribution, preload: string[]): DistributionFacts {
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
  const pkg = JSON.parse(readFileSync(join(legacyDistDir(), '..', 'package.json'), 'utf8')) as { version: string };
  return {
    python: LEGACY_PYTHON,
    pyodide: pkg.version,
    packages: Object.fromEntries(preload.map((name) => [name, spec.versions[spec.import_name_to_package_name[name] ?? name] ?? 'unknown'])),
    available: Object.keys(spec.dependencies).sort(),
  };
}
