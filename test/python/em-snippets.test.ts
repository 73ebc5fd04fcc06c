/**
 * The host's reader of compiled libraries' JavaScript snippets (src/python/wasm-side-module.ts, em-snippets.ts) and
 * the worker's loader edits (workers/thread/runtime/em-snippet-loader.ts), without booting a session. That the
 * snippets then run in a session is test/e2e/compiled-packages.test.ts; that other snippets are refused there is
 * test/security/em-snippets.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { zipSync } from 'fflate';
import { emAsmSource, emJsSource, librarySources, readEmSnippets } from '../../src/python/em-snippets.js';
import { modernDistDir } from '../../src/python/distribution.js';
import { sideModuleSnippets } from '../../src/python/wasm-side-module.js';
import { applyEdits, loaderWithSnippets } from '../../workers/thread/runtime/em-snippet-loader.js';
import { sideModule, snippetModule } from '../wasm-builder.js';

describe('the snippets a side module carries', () => {
  it('reads EM_JS functions and the EM_ASM run as the loader would', () => {
    const bytes = snippetModule({ add: '(int a, int b)<::>{ return a + b; }', hello: '(void)<::>{ return 7; }' }, [
      '{ return $0 * 2; }',
      'console.log("x")',
    ]);
    const found = sideModuleSnippets(bytes);
    assert.deepEqual(found.emJs, [
      { name: 'add', text: '(int a, int b)<::>{ return a + b; }' },
      { name: 'hello', text: '(void)<::>{ return 7; }' },
    ]);
    assert.deepEqual(found.emAsm, ['{ return $0 * 2; }', 'console.log("x")']);
  });

  it('places segments at __memory_base plus an extended-const offset, and skips passive ones', () => {
    const bytes = sideModule({
      segments: [
        { offset: 0, bytes: 'padding\0' },
        { offset: 100, bytes: '(char* s)<::>{ return s; }\0', extendedConst: true },
        { offset: 0, bytes: 'never read', passive: true },
      ],
      exports: { __em_js__echo: 100 },
    });
    assert.deepEqual(sideModuleSnippets(bytes).emJs, [{ name: 'echo', text: '(char* s)<::>{ return s; }' }]);
  });

  it('finds nothing in a library without snippets, and refuses what is not a module or is cut short', () => {
    assert.deepEqual(sideModuleSnippets(sideModule({ segments: [{ offset: 0, bytes: 'data' }], exports: {} })), { emJs: [], emAsm: [] });
    assert.throws(() => sideModuleSnippets(new TextEncoder().encode('#!/bin/sh\necho not wasm\n')), /not a WebAssembly module/);
    const whole = snippetModule({}, ['{ return 1; }']);
    assert.throws(() => sideModuleSnippets(whole.subarray(0, whole.length - 5)), /unexpected end/);
  });
});

describe("the loader's source text for a snippet", () => {
  it('EM_ASM: parameters $0… as long as the body names the next one', () => {
    assert.equal(emAsmSource('{ return 1; }'), '() => { { return 1; } };');
    assert.equal(emAsmSource('{ return $0 + $1; }'), '($0,$1) => { { return $0 + $1; } };');
    // The loader stops at the first missing one: $2 without $1 is not a parameter.
    assert.equal(emAsmSource('{ return $0 + $2; }'), '($0) => { { return $0 + $2; } };');
  });

  it('EM_JS: the C parameters’ last words without *', () => {
    assert.equal(emJsSource('(void)<::>{ return 7; }'), '() => { return 7; };');
    assert.equal(emJsSource('(int a, char* s, char *t)<::>{ return a; }'), '(a,s,t) => { return a; };');
  });
});

const dir = mkdtempSync(join(tmpdir(), 'em-snippets-'));
const wheel = (file: string, entries: Record<string, Uint8Array>) => {
  writeFileSync(join(dir, file), zipSync(entries));
  return file;
};

describe("reading a directory's verified wheels", () => {
  it('collects every library’s snippets once, and names what it could not read or would not trust', () => {
    const good = snippetModule({ add: '(int a, int b)<::>{ return a + b; }' }, ['{ return $0 * 2; }']);
    // Security: a text that would close its case in the worker's loader and run code while it boots.
    const escaping = snippetModule({}, ['} }; globalThis.stolen = 1; function f() { {']);
    const files = [
      wheel('good-1.0-cp314-cp314-pyemscripten_2026_0_wasm32.whl', {
        'good/_core.so': good,
        'good/_copy.cpython-314-wasm32-emscripten.so': good,
        'good/__init__.py': new TextEncoder().encode('from ._core import *\n'),
      }),
      wheel('libgood-1.0.zip', { 'lib/libgood.so.1': good }),
      wheel('bad-1.0-cp314-cp314-pyemscripten_2026_0_wasm32.whl', { 'bad/_core.so': escaping }),
      wheel('junk-1.0-cp314-cp314-pyemscripten_2026_0_wasm32.whl', { 'junk/_core.so': new TextEncoder().encode('not wasm') }),
      'missing-1.0-cp314-cp314-pyemscripten_2026_0_wasm32.whl',
    ];
    symlinkSync(join(dir, files[0]!), join(dir, 'link-1.0-cp314-cp314-pyemscripten_2026_0_wasm32.whl'));
    files.push('link-1.0-cp314-cp314-pyemscripten_2026_0_wasm32.whl');
    const { sources, problems } = readEmSnippets(dir, files);
    assert.deepEqual(sources, ['($0) => { { return $0 * 2; } };', '(a,b) => { return a + b; };']);
    assert.equal(problems.length, 4, problems.join('\n'));
    assert.match(problems[0]!, /^bad-1\.0.*!bad\/_core\.so: a snippet that is not one JavaScript function/);
    assert.match(problems[1]!, /^junk-1\.0.*!junk\/_core\.so: not a WebAssembly module/);
    assert.match(problems[2]!, /^missing-1\.0.*ENOENT/);
    assert.match(problems[3]!, /^link-1\.0.*(ELOOP|symbolic link)/i);
  });

  it('skips pure-Python wheels without opening them', () => {
    assert.deepEqual(readEmSnippets(dir, ['absent-1.0-py3-none-any.whl']), { sources: [], problems: [] });
  });

  it('librarySources gives the loader texts of one library', () => {
    assert.deepEqual(librarySources(snippetModule({ f: '(void)<::>{ return 1; }' }, [])), ['() => { return 1; };']);
  });
});

describe("the worker's loader with snippets compiled in", () => {
  it('the edits apply to the pinned loader exactly, the edited loader compiles, and no snippet runs on its own', async () => {
    // A text the host accepts (one FunctionBody) stays inside its case: what follows its `return` never runs.
    const contained = emAsmSource('1 }; globalThis.stolen = 1; {');
    assert.deepEqual(
      readEmSnippets(dir, [
        wheel('odd-1.0-cp314-cp314-pyemscripten_2026_0_wasm32.whl', { 'odd/_c.so': snippetModule({}, ['1 }; globalThis.stolen = 1; {']) }),
      ]),
      { sources: [contained], problems: [] },
    );
    const factory = await loaderWithSnippets(modernDistDir(), ['($0) => { { return $0 * 2; } };', contained]);
    assert.equal(typeof factory, 'function');
    assert.equal((globalThis as { stolen?: unknown }).stolen, undefined);
    assert.equal(await loaderWithSnippets(modernDistDir(), []), undefined);
  });

  it('an edit whose text is not found the expected number of times is refused with what was expected', () => {
    assert.deepEqual(applyEdits('a eval(x) b eval(x)', [{ find: 'eval(x)', replace: 'f(x)', count: 2 }]), { text: 'a f(x) b f(x)' });
    const refused = applyEdits('a eval(x)', [{ find: 'eval(x)', replace: 'f(x)', count: 2 }]);
    assert.ok('problem' in refused && /expected 2 of "eval\(x\)" in pyodide\.asm\.mjs, found 1/.test(refused.problem));
  });
});
