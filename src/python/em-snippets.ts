/**
 * The JavaScript that verified wheels' compiled libraries carry (EM_JS functions, EM_ASM snippets), as the exact
 * source text Emscripten's loader would `eval` for each, read once when the server starts.
 *
 * Why: sessions have no code generation from strings (src/supervisor/worker-sandbox.ts), so the loader's `eval`
 * throws and such a library cannot load. Giving sessions `eval` back is not an option: user code could then compile
 * anything. Instead the worker compiles exactly these texts into its copy of the loader before the lockdown
 * (workers/thread/runtime/em-snippet-loader.ts), and the loader's `eval(text)` becomes a lookup that refuses any
 * other text. Security: the texts come only from wheels whose sha256 matched the lock (wheel-check.ts): code of the
 * same origin as the library's own machine code, which runs in the session anyway.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { sideModuleSnippets } from './wasm-side-module.js';
import { zipEntries } from './zip-entries.js';

/** Bounds on what the host hands every worker: far above any real package's snippets, far below a memory problem. */
export const MAX_SNIPPET_BYTES = 64 * 1024;
export const MAX_SNIPPETS_BYTES = 4 * 1024 * 1024;

/** What was read from a directory's verified wheels. */
export interface EmSnippets {
  /** The loader's source text for each snippet (`(a,b) => { … };`), deduplicated, in a stable order. */
  sources: string[];
  /** One line per library whose snippets were not read, and why (logged; such a library's snippets stay refused). */
  problems: string[];
}

/**
 * The source text the 5.0.3 loader builds for an EM_ASM body (pyodide.asm.mjs, `addEmAsm`): parameters `$0`, `$1`, …
 * as long as the body mentions the next one.
 */
export function emAsmSource(body: string): string {
  const args: string[] = [];
  for (let arity = 0; body.includes(`$${arity}`); arity++) args.push(`$${arity}`);
  return `(${args.join(',')}) => { ${body} };`;
}

/**
 * The source text the 5.0.3 loader builds for an EM_JS function (`addEmJs`) from its `"(signature)<::>body"`: the C
 * parameters' last words without `*`.
 */
export function emJsSource(text: string): string {
  const [signature = '', body] = text.split('<::>');
  const inner = signature.slice(1, -1);
  const args = inner === 'void' ? [] : inner.split(',').map((arg) => arg.split(' ').pop()!.replaceAll('*', ''));
  return `(${args.join(',')}) => ${body};`;
}

/** The loader's source texts for every snippet in one side module's bytes. */
export function librarySources(bytes: Uint8Array): string[] {
  const { emJs, emAsm } = sideModuleSnippets(bytes);
  return [...emJs.map((fn) => emJsSource(fn.text)), ...emAsm.map(emAsmSource)];
}

/** Whether a file inside a wheel or shared-library zip is a library the loader may load (`.so`, `.so.N`). */
const isLibrary = (name: string) => /\.so(\.\d+)*$/.test(name);

/**
 * Reads the snippets of every library inside the wheels `files` of `dir` (names the host verified). Never throws: a
 * wheel that cannot be read or parsed is named in `problems`, and its snippets stay refused in sessions.
 *
 * Read through one handle opened without following a symlink, like the verification, so a file swapped for a link
 * since then is not followed. A wheel that changed since it was hashed is the residual risk SECURITY.md names.
 */
export function readEmSnippets(dir: string, files: string[]): EmSnippets {
  const sources = new Set<string>();
  const problems: string[] = [];
  let total = 0;
  for (const file of files) {
    if (file.endsWith('-none-any.whl')) continue; // pure Python: no libraries
    let archive: Uint8Array;
    try {
      archive = readNoFollow(join(dir, file));
    } catch (error) {
      problems.push(`${file}: ${(error as Error).message}`);
      continue;
    }
    let libraries: Record<string, Uint8Array>;
    try {
      libraries = zipEntries(archive, isLibrary);
    } catch (error) {
      problems.push(`${file}: not a readable zip (${(error as Error).message})`);
      continue;
    }
    for (const [name, bytes] of Object.entries(libraries)) {
      let found: string[];
      try {
        found = librarySources(bytes);
      } catch (error) {
        problems.push(`${file}!${name}: ${(error as Error).message}`);
        continue;
      }
      for (const source of found) {
        if (sources.has(source)) continue;
        const unparsable = parseProblem(source);
        if (unparsable) {
          problems.push(`${file}!${name}: a snippet that is not one JavaScript function (${unparsable})`);
          continue;
        }
        if (source.length > MAX_SNIPPET_BYTES || total + source.length > MAX_SNIPPETS_BYTES) {
          problems.push(`${file}!${name}: a snippet beyond the ${MAX_SNIPPET_BYTES}-byte bound (or all beyond ${MAX_SNIPPETS_BYTES})`);
          continue;
        }
        sources.add(source);
        total += source.length;
      }
    }
  }
  return { sources: [...sources].sort(), problems };
}

/**
 * Why the text, placed as `return <text>` in a case of the worker's loader (em-snippet-loader.ts), would not be a
 * contained function expression; null when it is.
 *
 * Security: the worker compiles the snippets into its loader BEFORE the lockdown, so a text that closed the case early
 * (`…}; stealSomething(); {…`) would run with the worker's boot-time rights. The Function constructor parses its
 * body as a FunctionBody on its own (ECMA-262 CreateDynamicFunction), so a text it accepts has balanced braces,
 * strings and comments and cannot reach outside its case; strict, as the loader is module code. It is compiled here,
 * never called.
 */
function parseProblem(source: string): string | null {
  try {
    new Function(`'use strict'; return ${source}`);
    return null;
  } catch (error) {
    return (error as Error).message.slice(0, 200);
  }
}

function readNoFollow(path: string): Uint8Array {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new Error('not a regular file');
    const bytes = new Uint8Array(info.size);
    for (let at = 0, n; at < bytes.length && (n = readSync(fd, bytes, at, bytes.length - at, null)) > 0;) at += n;
    return bytes;
  } finally {
    closeSync(fd);
  }
}
