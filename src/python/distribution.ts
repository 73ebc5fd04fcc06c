/**
 * Which Pyodide distributions are installed, which wheels are present, and which distribution serves
 * the configured preload set, with the reason. The only host-side module that knows both exist.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { RuntimeKind } from '../contract.js';

const require = createRequire(import.meta.url);

/** Root of this package (where package.json and wheels/ live), from dist/src/. */

/** A package entry of pyodide-lock.json, reduced to what we read. */
export interface LockPackage {
  name: string;
  version: string;
  file_name: string;
  sha256: string;
  depends: string[];
  imports: string[];
}

export interface Lockfile {
  info: { python: string; [key: string]: unknown };
  packages: Record<string, LockPackage>;
}

/** The distribution a server will boot its sessions with. */
export interface Distribution {
  kind: RuntimeKind;
  distDir: string;
  wheelsDir: string | null;
  /** Human-readable reason this distribution was picked. */
  reason: string;
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

export function readModernLock(): Lockfile {
  return JSON.parse(readFileSync(join(modernDistDir(), 'pyodide-lock.json'), 'utf8')) as Lockfile;
}

/** Canonical package name as the lock file spells it (`Pillow` → `pillow`, `python_dateutil` → `python-dateutil`). */
export function canonicalName(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, '-');
}

/**
 * Every lock entry needed to load `names`, dependencies included, in dependency order.
 * Throws a TypeError naming a package that the lock file does not know.
 */
export function wheelClosure(lock: Lockfile, names: string[]): LockPackage[] {
  const byImport = new Map<string, string>();
  for (const [key, pkg] of Object.entries(lock.packages)) for (const imp of pkg.imports) byImport.set(imp, key);
  const seen = new Map<string, LockPackage>();
  const visit = (name: string) => {
    const key = lock.packages[canonicalName(name)] ? canonicalName(name) : byImport.get(name);
    if (!key) throw new TypeError(`Package ${JSON.stringify(name)} is not part of Pyodide ${lock.info.python}'s package set.`);
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

/** Packages (and import names) that the legacy distribution ships. */
export function legacyPackages(): Set<string> {
  const spec = JSON.parse(readFileSync(join(legacyDistDir(), 'packages.json'), 'utf8')) as {
    dependencies: Record<string, string[]>;
    import_name_to_package_name: Record<string, string>;
  };
  return new Set([...Object.keys(spec.dependencies), ...Object.keys(spec.import_name_to_package_name)]);
}

/**
 * Picks the distribution: the modern runtime when its wheels cover `preload` (or nothing is preloaded),
 * otherwise the legacy offline scientific distribution. `requested` forces one; an impossible request
 * throws a TypeError that says what is missing and how to fix it.
 */
export function chooseDistribution(requested: 'auto' | RuntimeKind, preload: string[], wheelsDir: string): Distribution {
  const lock = readModernLock();
  const missing = missingWheels(lock, preload, wheelsDir);
  const modern: Distribution = {
    kind: 'modern',
    distDir: modernDistDir(),
    wheelsDir,
    reason:
      preload.length === 0
        ? 'nothing to preload, so the newest runtime is used'
        : `every wheel needed for ${preload.join(', ')} is present in ${wheelsDir}`,
  };
  const shipped = legacyPackages();
  const legacyReady = preload.every((name) => shipped.has(name));
  const legacy = (reason: string): Distribution => ({ kind: 'legacy', distDir: legacyDistDir(), wheelsDir: null, reason });

  if (requested === 'modern') {
    if (missing.length > 0) {
      throw new TypeError(
        `--runtime modern needs ${missing.length} wheel(s) missing from ${wheelsDir} (${missing
          .map((p) => p.file_name)
          .slice(0, 5)
          .join(', ')}${missing.length > 5 ? ', …' : ''}). ` +
          'Run `npm run wheels:fetch -- --from <mirror>` or use --preload none / --runtime auto.',
      );
    }
    return { ...modern, reason: 'requested with --runtime modern' };
  }
  if (requested === 'legacy') {
    if (!legacyReady)
      throw new TypeError(
        `--runtime legacy cannot preload ${preload.filter((n) => !shipped.has(n)).join(', ')}: the legacy distribution does not ship it.`,
      );
    return legacy('requested with --runtime legacy');
  }
  if (missing.length === 0) return modern;
  if (legacyReady) {
    return legacy(
      `${missing.length} modern wheel(s) needed for ${preload.join(', ')} are not in ${wheelsDir}; the bundled offline scientific distribution (Pyodide 0.17.1) ships them all`,
    );
  }
  throw new TypeError(
    `No installed distribution can preload ${preload.join(', ')}: fetch the wheels with \`npm run wheels:fetch\` or change --preload.`,
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
    const lock = readModernLock();
    const present = new Set(distribution.wheelsDir && existsSync(distribution.wheelsDir) ? readdirSync(distribution.wheelsDir) : []);
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
  const spec = JSON.parse(readFileSync(join(legacyDistDir(), 'packages.json'), 'utf8')) as {
    dependencies: Record<string, string[]>;
    import_name_to_package_name: Record<string, string>;
    versions: Record<string, string>;
  };
  const pkg = JSON.parse(readFileSync(join(legacyDistDir(), '..', 'package.json'), 'utf8')) as { version: string };
  return {
    python: LEGACY_PYTHON,
    pyodide: pkg.version,
    packages: Object.fromEntries(preload.map((name) => [name, spec.versions[spec.import_name_to_package_name[name] ?? name] ?? 'unknown'])),
    available: Object.keys(spec.dependencies).sort(),
  };
}
