/**
 * Real compiled packages for the modern runtime (Pyodide 314, Emscripten 5.0.3's dynamic linker): our own C, built
 * by scripts/build-compiled-fixtures.ts into test/fixtures/compiled/ and committed, so tests need no toolchain. This
 * copies them into a mirror directory and writes a test lock that is the pinned pyodide-lock.json plus entries for
 * them shaped exactly like the lock's `numpy` (a wheel) and `libopenblas` (a shared library), with their sha256: for
 * `--lock-file` and `--wheels-dir`, like test/fake-wheels.ts `writeMirror` for pure-Python wheels.
 *
 * The packages (test/fixtures/compiled/fixtures.json says the same):
 * - `libmcpmath` (shared_library, install_dir dynlib): libmcpmath.so, `mcpmath_dot`, `mcpmath_version` (10203);
 * - `mcpnative` (depends on libmcpmath): `mcpnative.dot(a, b)` and `mcpnative.library_version()` call into it;
 * - `mcpfptr`: `twice(n)`, `triple(n)`, `table_name()` call CPython through a static table of function pointers;
 * - `mcpemjs`: `values(n) == (n * n, n + 1000)`, from an EM_JS function and an EM_ASM snippet;
 * - `mcpbroken`: references a data symbol nobody defines; loading it fails (`mcp_fixture_data_nobody_defines`).
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Lockfile, LockPackage } from '../src/python/distribution.js';
import { writeFakeWheels, writeLock, type FakePackage } from './fake-wheels.js';

/** test/fixtures/compiled/ in the source tree (from dist/test/). */
export const COMPILED_FIXTURES = join(fileURLToPath(import.meta.url), '..', '..', '..', 'test', 'fixtures', 'compiled');

/** The names of the compiled fixture packages. */
export type CompiledPackage = 'libmcpmath' | 'mcpnative' | 'mcpfptr' | 'mcpemjs' | 'mcpbroken';

/** One row of fixtures.json: a package's lock fields (without sha256) and what it is for. */
interface FixtureRow {
  name: CompiledPackage;
  version: string;
  file_name: string;
  install_dir: string;
  package_type: string;
  imports: string[];
  depends: string[];
  purpose: string;
}

/** The compiled packages' lock entries, shaped like the pinned lock's numpy and libopenblas, with their sha256. */
export function compiledLockEntries(): Record<CompiledPackage, LockPackage> {
  const rows = JSON.parse(readFileSync(join(COMPILED_FIXTURES, 'fixtures.json'), 'utf8')) as FixtureRow[];
  const entries = {} as Record<CompiledPackage, LockPackage>;
  for (const row of rows) {
    const bytes = readFileSync(join(COMPILED_FIXTURES, row.file_name));
    entries[row.name] = {
      name: row.name,
      version: row.version,
      file_name: row.file_name,
      install_dir: row.install_dir,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      package_type: row.package_type,
      imports: row.imports,
      depends: row.depends,
      unvendored_tests: false,
      tool: {},
    } as LockPackage;
  }
  return entries;
}

/**
 * Copies the compiled fixtures into `mirrorDir` (and writes the wheels of `pure`, invented pure-Python packages, e.g.
 * a preload set that can be snapshotted), then writes `lockPath`: the pinned lock plus all of them. Returns the lock.
 * Use the directory as `--wheels-dir` and the lock as `--lock-file`.
 */
export function writeCompiledMirror(mirrorDir: string, lockPath: string, pure: FakePackage[] = []): Lockfile {
  mkdirSync(mirrorDir, { recursive: true });
  const compiled = compiledLockEntries();
  for (const entry of Object.values(compiled)) copyFileSync(join(COMPILED_FIXTURES, entry.file_name), join(mirrorDir, entry.file_name));
  return writeLock(lockPath, { ...writeFakeWheels(mirrorDir, pure), ...compiled });
}
