/**
 * The modern runtime's loader (pyodide.asm.mjs) with the JavaScript of verified libraries compiled in, so that a
 * package whose `.so` carries EM_JS functions or EM_ASM snippets loads in a session that has no `eval`.
 *
 * Emscripten's loader builds each snippet's source text and `eval`s it inside the loader, so the snippet sees the
 * loader's scope (HEAPU8, UTF8ToString, Module, …). Sessions forbid code generation from strings, so that `eval`
 * throws. Here, before the lockdown, the worker reads the pinned loader's text and:
 *  - inserts, beside `addEmAsm`, a function that maps each known source text (src/python/em-snippets.ts: read by the
 *    host from the verified wheels) to the same text compiled in place, so it closes over the same scope `eval` would
 *    give it, and refuses every other text with an EvalError that says why;
 *  - makes the two `eval(func)` calls of `addEmAsm` / `addEmJs` call it;
 *  - replaces `import.meta.url` and the bare `import("ws")` with the original file's URLs (the text is imported from a
 *    `data:` URL, which has neither a file location nor a package scope).
 * Security: nothing here gives code generation back. The texts are compiled as part of the loader's module source,
 * which the worker imports while the import firewall is still open (it latches at lockdown); a text not in the
 * table is refused. Each text was checked on the host to be one contained function expression.
 *
 * The edits match the pinned build's text exactly (like linker-patches.ts for the legacy runtime). If they do not apply
 * or the edited loader does not compile, the boot fails with the reason (fail closed: a pinned build that differs is
 * a bug of ours, and the host checked each text parses as strict code, as module code is).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The loader's module factory, as loadPyodide's `createPyodideModule` option takes it. */
type ModuleFactory = NonNullable<NonNullable<Parameters<typeof import('pyodide').loadPyodide>[0]>['createPyodideModule']>;

/** The name of the inserted lookup; nothing in the pinned loader uses it. */
const LOOKUP = '__pyodideMcpSnippet';

/** An edit of the loader's text: `find` must occur exactly `count` times. */
interface Edit {
  find: string;
  replace: string;
  count: number;
}

/** What a library's snippet not in the table is told (through the loader's "Could not load dynamic lib" log). */
export const UNKNOWN_SNIPPET =
  'this library carries JavaScript (EM_JS / EM_ASM) that is not from a wheel the server verified against the lock; ' +
  "sessions cannot compile code from strings, so only verified wheels' snippets load";

/** The inserted lookup: each known text compiled in its own case, everything else refused. */
function lookupSource(sources: string[]): string {
  const cases = sources.map((source) => `case ${JSON.stringify(source)}:return ${source}\n`).join('');
  return `function ${LOOKUP}(text){switch(text){${cases}default:throw new EvalError(${JSON.stringify(UNKNOWN_SNIPPET)})}}`;
}

/** The loader's text with `edits` applied, or why they do not apply. */
export function applyEdits(text: string, edits: Edit[]): { text: string } | { problem: string } {
  let result = text;
  for (const edit of edits) {
    const parts = result.split(edit.find);
    if (parts.length - 1 !== edit.count) {
      return { problem: `expected ${edit.count} of ${JSON.stringify(edit.find)} in pyodide.asm.mjs, found ${parts.length - 1}` };
    }
    result = parts.join(edit.replace);
  }
  return { text: result };
}

/**
 * The module factory of the loader with `sources` compiled in (pass it to loadPyodide as `createPyodideModule`), or
 * undefined when there is nothing to compile in. Throws when the loader's text is not the one expected.
 */
export async function loaderWithSnippets(distDir: string, sources: string[]): Promise<ModuleFactory | undefined> {
  if (sources.length === 0) return undefined;
  const file = join(distDir, 'pyodide.asm.mjs');
  const fileUrl = pathToFileURL(file).href;
  const wsUrl = pathToFileURL(createRequire(fileUrl).resolve('ws')).href;
  const edited = applyEdits(readFileSync(file, 'utf8'), [
    { find: 'function addEmAsm(addr,body){', replace: `${lookupSource(sources)}function addEmAsm(addr,body){`, count: 1 },
    { find: 'ASM_CONSTS[start]=eval(func)', replace: `ASM_CONSTS[start]=${LOOKUP}(func)`, count: 1 },
    { find: 'moduleExports[name]=eval(func)', replace: `moduleExports[name]=${LOOKUP}(func)`, count: 1 },
    { find: 'import.meta.url', replace: JSON.stringify(fileUrl), count: 3 },
    { find: 'import("ws")', replace: `import(${JSON.stringify(wsUrl)})`, count: 1 },
  ]);
  if ('problem' in edited) throw new Error(`the loader cannot take the compiled libraries' JavaScript: ${edited.problem}`);
  const module = (await import(`data:text/javascript;base64,${Buffer.from(edited.text).toString('base64')}`)) as {
    default: ModuleFactory;
  };
  return module.default;
}
