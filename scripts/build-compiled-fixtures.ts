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
 * byte for byte the same. With a current Emscripten (emsdk) it works unchanged, with two differences: its LLVM
 * exports `__wasm_apply_data_relocs` itself, so the rewrite below finds nothing to do, and the bytes differ.
 *
 * Each module is compiled by `emcc -c` (Emscripten's headers, target and PIC code) and linked by `wasm-ld` with the
 * flags `emcc -sSIDE_MODULE=1` passes to it, without emcc's post-link steps: Emscripten 3.1.6's
 * wasm-emscripten-finalize refuses EM_ASM in a side module and drops the `__em_js__` exports, although the 5.0.3
 * loader handles both; and a plain `wasm-ld` link is the same with any Emscripten.
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
      "an extension calling the main module's functions through a static table of their addresses: twice(n), triple(n), table_name()",
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
 * and returns its bytes, with the data relocations moved out of the start function.
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
  const bytes = exportDataRelocs(readFileSync(output));
  writeFileSync(output, bytes);
  return bytes;
}

/**
 * LLVM 14's wasm-ld applies a shared library's data relocations in the module's start function, which runs during
 * instantiation, before Emscripten 5.0.3's loader has filled the `GOT.func` imports (it creates them with -1 and sets
 * them after instantiation). Static data that holds the address of a function of another module (mcpfptr's table of
 * CPython API functions) then holds -1, and calling through it dies with "table index is out of bounds". Current
 * LLVM (since 15) exports that function as `__wasm_apply_data_relocs` instead, and the loader calls it once the GOT
 * is filled, before the constructors. There is no wasm-ld 14 flag for it (`--export=__wasm_apply_data_relocs`:
 * "symbol not found"), and a wasm2wat/wat2wasm round trip would drop the dylink.0 custom section, so this rewrites
 * the binary: the start section goes, and its function is exported under that name. Nothing in the module runs
 * before the loader calls it (exports are read as values, EM_JS strings through exported addresses), and the global
 * relocations the start function may also apply depend only on __memory_base and __table_base, known before
 * instantiation. A module that already exports `__wasm_apply_data_relocs`, or has no start function, is returned as
 * it is.
 */
function exportDataRelocs(wasm: Uint8Array): Uint8Array {
  const sections = readSections(wasm);
  const start = sections.find((s) => s.id === SECTION_START);
  const exportIndex = sections.findIndex((s) => s.id === SECTION_EXPORT);
  const exports = exportIndex >= 0 ? readExports(sections[exportIndex]!.body) : [];
  if (!start || exports.some((e) => e.name === APPLY_DATA_RELOCS)) return wasm;
  const startFunction = readUleb(start.body, 0).value;
  const exportBody = writeExports([...exports, { name: APPLY_DATA_RELOCS, kind: 0, index: startFunction }]);
  const rewritten: Section[] = [];
  for (const section of sections) {
    if (section.id === SECTION_EXPORT) continue;
    // The export section comes just before where the start section was (section order: …, export 7, start 8, …).
    if (section === start) rewritten.push({ id: SECTION_EXPORT, body: exportBody });
    else rewritten.push(section);
  }
  return concat([wasm.subarray(0, 8), ...rewritten.flatMap((s) => [Uint8Array.of(s.id), uleb(s.body.byteLength), s.body])]);
}

const SECTION_EXPORT = 7;
const SECTION_START = 8;
const APPLY_DATA_RELOCS = '__wasm_apply_data_relocs';

interface Section {
  id: number;
  body: Uint8Array;
}
interface Export {
  name: string;
  kind: number;
  index: number;
}

function readSections(wasm: Uint8Array): Section[] {
  const magic = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  if (!magic.every((byte, i) => wasm[i] === byte)) throw new Error('not a WebAssembly 1.0 module');
  const sections: Section[] = [];
  let offset = 8;
  while (offset < wasm.byteLength) {
    const id = wasm[offset]!;
    const size = readUleb(wasm, offset + 1);
    sections.push({ id, body: wasm.subarray(size.next, size.next + size.value) });
    offset = size.next + size.value;
  }
  return sections;
}

function readExports(body: Uint8Array): Export[] {
  const count = readUleb(body, 0);
  const exports: Export[] = [];
  let offset = count.next;
  for (let i = 0; i < count.value; i++) {
    const length = readUleb(body, offset);
    const name = new TextDecoder().decode(body.subarray(length.next, length.next + length.value));
    const kind = body[length.next + length.value]!;
    const index = readUleb(body, length.next + length.value + 1);
    exports.push({ name, kind, index: index.value });
    offset = index.next;
  }
  return exports;
}

function writeExports(exports: Export[]): Uint8Array {
  return concat([
    uleb(exports.length),
    ...exports.flatMap((e) => {
      const name = new TextEncoder().encode(e.name);
      return [uleb(name.byteLength), name, Uint8Array.of(e.kind), uleb(e.index)];
    }),
  ]);
}

function readUleb(bytes: Uint8Array, offset: number): { value: number; next: number } {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[offset++]!;
    value += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return { value, next: offset };
    shift += 7;
  }
}

function uleb(value: number): Uint8Array {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return Uint8Array.from(out);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
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
