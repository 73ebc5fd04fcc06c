/**
 * Builds the compiled-package test fixtures (test/fixtures/compiled/) from our own C sources
 * (test/fixtures/compiled/src/): a shared library packaged like libopenblas in Pyodide's lock, and extension modules
 * packaged like numpy, for the modern runtime (pyodide 314.0.7: Python 3.14, Emscripten 5.0.3's dynamic linker).
 * The artifacts are committed, so tests and CI need no toolchain; `fixtures.json` beside them records each one's lock
 * fields (test/compiled-wheels.ts adds the sha256 and writes a test lock).
 *
 * Rebuild (after changing a source, or to check that the committed bytes come from these sources):
 *
 *     npm run fixtures:compiled        # = npm run build && node dist/scripts/build-compiled-fixtures.js
 *
 * Needs `emcc` (or $EMCC) and the `wasm-ld` of its LLVM (`em-config LLVM_ROOT`, or $WASM_LD). Built here with
 * Debian's emscripten 3.1.6 and LLVM/lld 14 (apt-get install emscripten lld); with the same toolchain the output is
 * byte for byte the same. A current Emscripten (emsdk) should need no change (not tried here: none is installed on
 * the machines this was built on): `emcc -c` and these wasm-ld flags are unchanged there; the bytes differ, and its
 * LLVM exports `__wasm_apply_data_relocs` where LLVM 14 runs it in a start function (checkRelocationsRunAfterGot).
 *
 * Each module is compiled by `emcc -c` (Emscripten's headers, target and PIC code) and linked by `wasm-ld` with the
 * flags `emcc -sSIDE_MODULE=1` passes to it, without emcc's post-link steps: Emscripten 3.1.6's
 * wasm-emscripten-finalize refuses EM_ASM in a side module and drops the `__em_js__` exports, although the 5.0.3
 * loader handles both; and a plain `wasm-ld` link does not depend on what emcc's post-link steps do in a version.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { strToU8, zipSync } from 'fflate';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'compiled');
const SOURCES = join(FIXTURES, 'src');

/** The platform tag of the lock's compiled wheels (numpy-2.4.6-cp314-cp314-pyemscripten_2026_0_wasm32.whl). */
const WHEEL_TAG = 'cp314-cp314-pyemscripten_2026_0_wasm32';
/** CPython 3.14's extension suffix on Emscripten (importlib.machinery.EXTENSION_SUFFIXES[0]). */
const EXTENSION_SUFFIX = '.cpython-314-wasm32-emscripten.so';
/** Every archive entry gets this date, so the same inputs give the same bytes. */
const MTIME = new Date('2020-01-01T00:00:00Z');

/** One package of the fixtures: what the lock says about it, and what goes into its archive. */
interface FixturePackage {
  name: string;
  version: string;
  /** `shared_library`: a .zip of .so files unpacked into install_dir `dynlib` (/usr/lib), like libopenblas. */
  package_type: 'package' | 'shared_library';
  depends: string[];
  imports: string[];
  /** Path inside the archive → a compiled module (`so`: source file, libraries it links against) or text. */
  files: Record<string, { so: string; links?: string[] } | { text: string }>;
  /** What the package is for, recorded in fixtures.json. */
  purpose: string;
}

const PACKAGES: FixturePackage[] = [
  {
    name: 'libmcpmath',
    version: '1.2.3',
    package_type: 'shared_library',
    depends: [],
    imports: [],
    files: { 'libmcpmath.so': { so: 'mcpmath.c' } },
    purpose: 'a shared library (mcpmath_dot, mcpmath_version), packaged like libopenblas',
  },
  {
    name: 'mcpnative',
    version: '1.0.0',
    package_type: 'package',
    depends: ['libmcpmath'],
    imports: ['mcpnative'],
    files: {
      'mcpnative/__init__.py': {
        text: '"""Calls into libmcpmath.so through the _native extension."""\nfrom ._native import dot, library_version\n\n__version__ = "1.0.0"\n',
      },
      [`mcpnative/_native${EXTENSION_SUFFIX}`]: { so: 'mcpnative.c', links: ['libmcpmath'] },
    },
    purpose: 'an extension that links against libmcpmath.so and calls into it: dot(a, b), library_version()',
  },
  {
    name: 'mcpfptr',
    version: '1.0.0',
    package_type: 'package',
    depends: [],
    imports: ['mcpfptr'],
    files: { [`mcpfptr${EXTENSION_SUFFIX}`]: { so: 'mcpfptr.c' } },
    purpose:
      "an extension calling functions through a static table of their addresses (CPython's and one it exports itself): twice(n), triple(n), table_name()",
  },
  {
    name: 'mcpemjs',
    version: '1.0.0',
    package_type: 'package',
    depends: [],
    imports: ['mcpemjs'],
    files: { [`mcpemjs${EXTENSION_SUFFIX}`]: { so: 'mcpemjs.c' } },
    purpose: 'an extension with an EM_JS function and an EM_ASM snippet: values(n) == (n * n, n + 1000)',
  },
  {
    name: 'mcpbroken',
    version: '1.0.0',
    package_type: 'package',
    depends: [],
    imports: ['mcpbroken'],
    files: { [`mcpbroken${EXTENSION_SUFFIX}`]: { so: 'mcpbroken.c' } },
    purpose:
      'an extension that references a data symbol nobody defines: loading it fails with "undefined symbol \'mcp_fixture_data_nobody_defines\'"',
  },
];

function main(): void {
  const emcc = process.env.EMCC ?? 'emcc';
  const wasmLd = process.env.WASM_LD ?? join(execFileSync('em-config', ['LLVM_ROOT'], { encoding: 'utf8' }).trim(), 'wasm-ld');
  const build = mkdtempSync(join(tmpdir(), 'compiled-fixtures-'));
  try {
    process.stderr.write(`${execFileSync(emcc, ['--version'], { encoding: 'utf8' }).split('\n')[0]}\n`);
    process.stderr.write(`${execFileSync(wasmLd, ['--version'], { encoding: 'utf8' }).trim()}\n`);
    const manifest: Record<string, unknown>[] = [];
    for (const pkg of PACKAGES) {
      const files: Record<string, Uint8Array> = {};
      for (const [path, spec] of Object.entries(pkg.files)) {
        files[path] = 'text' in spec ? strToU8(spec.text) : compileSideModule(emcc, wasmLd, build, spec.so, spec.links ?? []);
      }
      const { fileName, bytes } = pkg.package_type === 'shared_library' ? sharedLibraryZip(pkg, files) : wheel(pkg, files);
      writeFileSync(join(FIXTURES, fileName), bytes);
      process.stderr.write(`${fileName}: ${bytes.byteLength} bytes\n`);
      manifest.push({
        name: pkg.name,
        version: pkg.version,
        file_name: fileName,
        install_dir: pkg.package_type === 'shared_library' ? 'dynlib' : 'site',
        package_type: pkg.package_type,
        imports: pkg.imports,
        depends: pkg.depends,
        purpose: pkg.purpose,
      });
    }
    writeFileSync(join(FIXTURES, 'fixtures.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  } finally {
    rmSync(build, { recursive: true, force: true });
  }
}

/**
 * Compiles one C file into a side module (`lib<name>.so` in `build`, which `links` name for others to link against)
 * and returns its bytes.
 */
function compileSideModule(emcc: string, wasmLd: string, build: string, source: string, links: string[]): Uint8Array {
  const stem = source.replace(/\.c$/, '');
  const object = join(build, `${stem}.o`);
  const output = join(build, `lib${stem}.so`);
  execFileSync(emcc, ['-c', '-O2', '-fPIC', '-Wall', '-Werror', join(SOURCES, source), '-o', object], { stdio: 'inherit' });
  execFileSync(
    wasmLd,
    [
      '--experimental-pic',
      '-shared',
      '--import-memory',
      '--import-undefined',
      '--export-dynamic',
      '--no-gc-sections',
      '--strip-debug',
      // The loader finds EM_ASM snippets between these two (a side module's em_asm section).
      '--export-if-defined=__start_em_asm',
      '--export-if-defined=__stop_em_asm',
      '--export-if-defined=__wasm_call_ctors',
      object,
      // Linking against a library records it in the dylink.0 section's `needed` list, as libopenblas.so is in numpy's,
      // under the name given here: a bare file name (the link runs in `build`), which the loader looks up in /usr/lib.
      ...links.map((lib) => `${lib}.so`),
      '-o',
      output,
    ],
    { stdio: 'inherit', cwd: build },
  );
  const bytes = readFileSync(output);
  checkRelocationsRunAfterGot(bytes, source);
  return bytes;
}

/**
 * When the data relocations run. A side module's static data that holds a function's address (mcpfptr's table,
 * mcpnative's pointer to mcpmath_dot) is written by relocation code that reads the module's `GOT.func` imports.
 * Emscripten 5.0.3's loader creates those with -1 and fills them only after instantiation for functions the module
 * itself exports (the main module's and already loaded libraries' are in the GOT before). LLVM 14's wasm-ld puts that
 * code, `__wasm_apply_data_relocs`, in the start function, which runs during instantiation and so stores -1 for such
 * a function; calling through it would die with "table index is out of bounds". But the same wasm-ld also calls
 * `__wasm_apply_data_relocs` first thing in `__wasm_call_ctors`, which the loader calls after filling the GOT, so
 * the relocations are applied again, right, before anything in the module runs (measured: mcpfptr's
 * `mcpfptr_own_function` holds -1 after instantiation and the function's table index once loaded). Newer LLVM
 * exports `__wasm_apply_data_relocs` instead of running it at start, and the loader calls it at that same point.
 * So the module is correct as either links it if one of the two is exported; this checks that, rather than
 * rewriting the binary (no wasm-ld 14 flag would export `__wasm_apply_data_relocs`: "symbol not found").
 */
interface WasmApi {
  Module: { new (bytes: Uint8Array): object; exports(module: object): { name: string }[] };
}

function checkRelocationsRunAfterGot(bytes: Uint8Array, source: string): void {
  // The compiler's lib has no WebAssembly types (no DOM lib); Node has the API.
  const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
  const exported = wasm.Module.exports(new wasm.Module(bytes)).map((e) => e.name);
  if (!exported.includes('__wasm_apply_data_relocs') && !exported.includes('__wasm_call_ctors')) {
    throw new Error(
      `${source}: neither __wasm_apply_data_relocs nor __wasm_call_ctors is exported; its data relocations would run before the GOT is filled`,
    );
  }
}

/** A shared_library package: a .zip whose .so files Pyodide unpacks into /usr/lib and loads globally. */
function sharedLibraryZip(pkg: FixturePackage, files: Record<string, Uint8Array>): { fileName: string; bytes: Uint8Array } {
  return { fileName: `${pkg.name}-${pkg.version}.zip`, bytes: zip(files) };
}

/** A platform wheel, named and tagged like the lock's numpy, with METADATA, WHEEL, top_level.txt and RECORD. */
function wheel(pkg: FixturePackage, files: Record<string, Uint8Array>): { fileName: string; bytes: Uint8Array } {
  const distInfo = `${pkg.name}-${pkg.version}.dist-info`;
  const all = { ...files };
  all[`${distInfo}/METADATA`] = strToU8(`Metadata-Version: 2.1\nName: ${pkg.name}\nVersion: ${pkg.version}\nSummary: ${pkg.purpose}\n`);
  all[`${distInfo}/WHEEL`] = strToU8(`Wheel-Version: 1.0\nGenerator: pyodide-mcp-fixtures\nRoot-Is-Purelib: false\nTag: ${WHEEL_TAG}\n`);
  all[`${distInfo}/top_level.txt`] = strToU8(pkg.imports.map((name) => `${name}\n`).join(''));
  const record = Object.entries(all).map(
    ([path, data]) => `${path},sha256=${createHash('sha256').update(data).digest('base64url')},${data.byteLength}`,
  );
  all[`${distInfo}/RECORD`] = strToU8([...record, `${distInfo}/RECORD,,`, ''].join('\n'));
  return { fileName: `${pkg.name}-${pkg.version}-${WHEEL_TAG}.whl`, bytes: zip(all) };
}

function zip(files: Record<string, Uint8Array>): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(files).map(([path, data]) => [path, [data, { mtime: MTIME }]])));
}

mkdirSync(FIXTURES, { recursive: true });
main();
