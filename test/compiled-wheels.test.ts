/**
 * The committed compiled fixtures (test/fixtures/compiled/, built by scripts/build-compiled-fixtures.ts) are what the
 * tests take them for, without booting Pyodide: lock entries with exactly the fields of the pinned lock's numpy and
 * libopenblas, wheels whose RECORD matches their files, and side modules that Emscripten's loader will accept
 * (dylink.0 first, mcpnative needing libmcpmath.so, EM_JS/EM_ASM exported, the undefined symbol imported).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { strFromU8, unzipSync } from 'fflate';
import { readModernLock } from '../src/python/distribution.js';
import { COMPILED_FIXTURES, compiledLockEntries, writeCompiledMirror } from './compiled-wheels.js';

const wasm = (globalThis as any).WebAssembly;

/** The archive's files, by path. */
const filesOf = (fileName: string) => unzipSync(new Uint8Array(readFileSync(join(COMPILED_FIXTURES, fileName))));

/** The `needed` list of a side module's dylink.0 section (subsection 2: a count, then length-prefixed names). */
function neededLibraries(module: object): string[] {
  const section = new Uint8Array(wasm.Module.customSections(module, 'dylink.0')[0]);
  let offset = 0;
  const leb = () => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = section[offset++]!;
      value += (byte & 0x7f) * 2 ** shift;
      if (!(byte & 0x80)) return value;
    }
  };
  while (offset < section.length) {
    const type = section[offset++]!;
    const size = leb();
    if (type !== 2) {
      offset += size;
      continue;
    }
    return Array.from({ length: leb() }, () => {
      const length = leb();
      offset += length;
      return strFromU8(section.subarray(offset - length, offset));
    });
  }
  return [];
}

describe('compiled fixtures', () => {
  const entries = compiledLockEntries();
  const pinned = readModernLock().packages as Record<string, object>;

  it('lock entries have exactly the fields of the lock’s numpy (wheels) and libopenblas (shared library)', () => {
    assert.deepEqual(Object.keys(entries).sort(), ['libmcpmath', 'mcpbroken', 'mcpemjs', 'mcpfptr', 'mcpnative']);
    for (const entry of Object.values(entries)) {
      const model = entry.package_type === 'shared_library' ? pinned.libopenblas! : pinned.numpy!;
      assert.deepEqual(Object.keys(entry).sort(), Object.keys(model).sort(), entry.name);
      assert.match(entry.sha256, /^[0-9a-f]{64}$/);
    }
    assert.equal((entries.libmcpmath as any).install_dir, 'dynlib');
    assert.match(entries.libmcpmath.file_name, /^libmcpmath-[\d.]+\.zip$/);
    assert.deepEqual(entries.mcpnative.depends, ['libmcpmath']);
    assert.match(entries.mcpnative.file_name, /^mcpnative-[\d.]+-cp314-cp314-pyemscripten_2026_0_wasm32\.whl$/);
  });

  it('wheels carry METADATA, a platform WHEEL tag and a RECORD that matches every file', () => {
    for (const entry of Object.values(entries).filter((e) => e.package_type === 'package')) {
      const files = filesOf(entry.file_name);
      const distInfo = `${entry.name}-${entry.version}.dist-info`;
      assert.match(strFromU8(files[`${distInfo}/METADATA`]!), new RegExp(`^Name: ${entry.name}$`, 'm'));
      assert.match(strFromU8(files[`${distInfo}/WHEEL`]!), /^Root-Is-Purelib: false\nTag: cp314-cp314-pyemscripten_2026_0_wasm32$/m);
      const record = strFromU8(files[`${distInfo}/RECORD`]!).trim().split('\n');
      assert.equal(record.length, Object.keys(files).length);
      for (const line of record) {
        const [path, hash, size] = line.split(',');
        if (path === `${distInfo}/RECORD`) continue;
        const data = files[path!]!;
        assert.equal(hash, `sha256=${createHash('sha256').update(data).digest('base64url')}`, path);
        assert.equal(Number(size), data.byteLength, path);
      }
    }
  });

  it('side modules: dylink.0, relocations applied after the GOT is filled, needed libraries, EM_JS/EM_ASM, the undefined symbol', () => {
    const modules: Record<string, object> = {};
    for (const entry of Object.values(entries)) {
      for (const [path, data] of Object.entries(filesOf(entry.file_name))) {
        if (!path.endsWith('.so')) continue;
        const module = new wasm.Module(data);
        modules[path] = module;
        assert.equal(wasm.Module.customSections(module, 'dylink.0').length, 1, path);
        const exported = wasm.Module.exports(module).map((e: { name: string }) => e.name);
        assert.ok(exported.includes('__wasm_call_ctors') || exported.includes('__wasm_apply_data_relocs'), path);
      }
    }
    assert.deepEqual(Object.keys(modules).sort(), [
      'libmcpmath.so',
      'mcpbroken.cpython-314-wasm32-emscripten.so',
      'mcpemjs.cpython-314-wasm32-emscripten.so',
      'mcpfptr.cpython-314-wasm32-emscripten.so',
      'mcpnative/_native.cpython-314-wasm32-emscripten.so',
    ]);
    assert.deepEqual(neededLibraries(modules['mcpnative/_native.cpython-314-wasm32-emscripten.so']!), ['libmcpmath.so']);
    const emjs = wasm.Module.exports(modules['mcpemjs.cpython-314-wasm32-emscripten.so']).map((e: { name: string }) => e.name);
    for (const name of ['__em_js__mcpemjs_js_square', '__start_em_asm', '__stop_em_asm']) assert.ok(emjs.includes(name), name);
    const imports = wasm.Module.imports(modules['mcpbroken.cpython-314-wasm32-emscripten.so']);
    assert.ok(
      imports.some((i: { module: string; name: string }) => i.module === 'GOT.mem' && i.name === 'mcp_fixture_data_nobody_defines'),
    );
    const fptr = wasm.Module.imports(modules['mcpfptr.cpython-314-wasm32-emscripten.so']);
    assert.ok(fptr.some((i: { module: string; name: string }) => i.module === 'GOT.func' && i.name === 'mcpfptr_triple'));
  });

  it('writeCompiledMirror writes a lock that names every fixture with the sha256 of the copy it wrote', () => {
    const dir = mkdtempSync(join(tmpdir(), 'compiled-mirror-'));
    try {
      const lock = writeCompiledMirror(join(dir, 'wheels'), join(dir, 'lock.json'));
      assert.deepEqual(JSON.parse(readFileSync(join(dir, 'lock.json'), 'utf8')), lock);
      assert.ok(lock.packages.numpy, 'the pinned lock is kept');
      for (const entry of Object.values(entries)) {
        const copy = readFileSync(join(dir, 'wheels', entry.file_name));
        assert.equal(lock.packages[entry.name]!.sha256, createHash('sha256').update(copy).digest('hex'));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
