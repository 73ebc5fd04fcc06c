/**
 * Reads the JavaScript snippets an Emscripten side module (a package's `.so`) carries, without running it.
 *
 * Why: Emscripten's loader turns EM_JS functions and EM_ASM snippets into JavaScript with `eval` when it loads the
 * library (`addEmJs` / `addEmAsm` in pyodide.asm.mjs), and sessions have no code generation from strings. The host
 * reads the snippets of verified wheels here so that the worker can compile them as part of its loader before the
 * lockdown (em-snippets.ts, workers/thread/runtime/em-snippet-loader.ts).
 *
 * What is read is what the 5.0.3 loader reads at run time: every exported global named `__em_js__<name>` points at a
 * NUL-terminated `"(signature)<::>body"`; the exported globals `__start_em_asm` / `__stop_em_asm` bound a run of
 * NUL-terminated EM_ASM bodies. Exported data addresses of a side module are relative to its `__memory_base`, and
 * its data segments are placed at `__memory_base` (plus a constant offset, with extended-const), so a memory image
 * relative to that base gives the same strings the loader reads from the heap. WebAssembly binary format:
 * https://webassembly.github.io/spec/core/binary/ (sections 2 import, 6 global, 7 export, 11 data).
 */

/** The snippets of one side module, as the loader would read them. */
export interface SideModuleSnippets {
  /** EM_JS functions: export name without `__em_js__`, and `"(signature)<::>body"`. */
  emJs: { name: string; text: string }[];
  /** EM_ASM bodies, in address order. */
  emAsm: string[];
}

const WASM_MAGIC = 0x6d736100; // "\0asm"
const SECTION = { import: 2, global: 6, export: 7, data: 11 } as const;
const EXTERNAL_GLOBAL = 3;
/** A side module's data is bounded by what a wheel may hold; a larger claimed image is a malformed file. */
const MAX_IMAGE_BYTES = 256 * 1024 * 1024;

/** A cursor over the module's bytes; every read is bounds-checked (a malformed file throws, never reads past). */
class Reader {
  constructor(
    readonly bytes: Uint8Array,
    public at = 0,
  ) {}
  byte(): number {
    if (this.at >= this.bytes.length) throw new Error('unexpected end of the WebAssembly module');
    return this.bytes[this.at++]!;
  }
  /** Unsigned LEB128 (up to 32 bits). */
  u32(): number {
    let result = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
    }
    throw new Error('malformed LEB128 in the WebAssembly module');
  }
  /** Signed LEB128 (i32.const immediates). */
  s32(): number {
    let result = 0;
    let shift = 0;
    let b: number;
    do {
      b = this.byte();
      result |= (b & 0x7f) << shift;
      shift += 7;
    } while (b & 0x80 && shift < 35);
    if (shift < 32 && b & 0x40) result |= -1 << shift;
    return result;
  }
  take(length: number): Uint8Array {
    if (this.at + length > this.bytes.length) throw new Error('unexpected end of the WebAssembly module');
    const slice = this.bytes.subarray(this.at, this.at + length);
    this.at += length;
    return slice;
  }
  name(): string {
    return new TextDecoder().decode(this.take(this.u32()));
  }
}

/**
 * A constant expression, evaluated relative to the module's `__memory_base` (which counts as 0): `i32.const N`,
 * `global.get G` of an imported global (a base: 0), or either followed by `i32.const N; i32.add` (extended-const).
 * Returns null for what a data address cannot be (another global's value, other opcodes).
 */
function constExpr(reader: Reader, importedGlobals: number, definedInits: (number | null)[]): number | null {
  const stack: (number | null)[] = [];
  for (;;) {
    const op = reader.byte();
    if (op === 0x0b) return stack.length === 1 ? stack[0]! : null; // end
    if (op === 0x41)
      stack.push(reader.s32()); // i32.const
    else if (op === 0x23) {
      // global.get: an imported global is __memory_base / __table_base (relative 0); a defined one, its init.
      const index = reader.u32();
      stack.push(index < importedGlobals ? 0 : (definedInits[index - importedGlobals] ?? null));
    } else if (op === 0x6a) {
      // i32.add
      const b = stack.pop();
      const a = stack.pop();
      stack.push(a === undefined || b === undefined || a === null || b === null ? null : (a + b) | 0);
    } else return null;
  }
}

/** Skips an import's description (its kind decides the shape); returns whether it was a global. */
function skipImportDesc(reader: Reader): boolean {
  const kind = reader.byte();
  if (kind === 0)
    reader.u32(); // function: type index
  else if (kind === 1) {
    reader.byte(); // table: reftype, then limits
    skipLimits(reader);
  } else if (kind === 2)
    skipLimits(reader); // memory
  else if (kind === EXTERNAL_GLOBAL) {
    reader.byte(); // valtype
    reader.byte(); // mutability
    return true;
  } else if (kind === 4) {
    reader.byte(); // tag: attribute, type index
    reader.u32();
  } else throw new Error(`unknown import kind ${kind} in the WebAssembly module`);
  return false;
}

function skipLimits(reader: Reader): void {
  const flags = reader.byte();
  reader.u32();
  if (flags & 1) reader.u32();
}

/** The snippets `bytes` (a side module) carries; empty lists for a module without any. Throws on a malformed module. */
export function sideModuleSnippets(bytes: Uint8Array): SideModuleSnippets {
  const reader = new Reader(bytes);
  if (bytes.length < 8 || new DataView(bytes.buffer, bytes.byteOffset, 8).getUint32(0, true) !== WASM_MAGIC) {
    throw new Error('not a WebAssembly module');
  }
  reader.at = 8;
  let importedGlobals = 0;
  const definedInits: (number | null)[] = [];
  const globalExports = new Map<string, number>();
  const segments: { offset: number; data: Uint8Array }[] = [];
  while (reader.at < bytes.length) {
    const id = reader.byte();
    const size = reader.u32();
    const section = new Reader(reader.take(size));
    if (id === SECTION.import) {
      for (let n = section.u32(); n > 0; n--) {
        section.name();
        section.name();
        if (skipImportDesc(section)) importedGlobals++;
      }
    } else if (id === SECTION.global) {
      for (let n = section.u32(); n > 0; n--) {
        section.byte(); // valtype
        section.byte(); // mutability
        definedInits.push(constExpr(section, importedGlobals, definedInits));
      }
    } else if (id === SECTION.export) {
      for (let n = section.u32(); n > 0; n--) {
        const name = section.name();
        const kind = section.byte();
        const index = section.u32();
        if (kind === EXTERNAL_GLOBAL) globalExports.set(name, index);
      }
    } else if (id === SECTION.data) {
      for (let n = section.u32(); n > 0; n--) {
        const mode = section.u32();
        // Active in memory 0 (mode 0), passive (1: filled at run time by code; not read), active with an index (2).
        if (mode === 2) section.u32();
        const offset = mode === 1 ? null : constExpr(section, importedGlobals, definedInits);
        const data = section.take(section.u32());
        if (offset !== null) segments.push({ offset, data });
      }
    }
  }

  const imageSize = segments.reduce((max, s) => Math.max(max, s.offset + s.data.length), 0);
  if (imageSize > MAX_IMAGE_BYTES || segments.some((s) => s.offset < 0)) throw new Error('the module claims an implausible data layout');
  const image = new Uint8Array(imageSize);
  for (const segment of segments) image.set(segment.data, segment.offset);
  const address = (exportName: string): number | null => {
    const index = globalExports.get(exportName);
    if (index === undefined || index < importedGlobals) return null;
    return definedInits[index - importedGlobals] ?? null;
  };
  const cString = (at: number): string => {
    const end = image.indexOf(0, at);
    return new TextDecoder().decode(image.subarray(at, end === -1 ? image.length : end));
  };

  const emJs: SideModuleSnippets['emJs'] = [];
  for (const exportName of globalExports.keys()) {
    if (!exportName.startsWith('__em_js__')) continue;
    const at = address(exportName);
    if (at !== null && at >= 0 && at < image.length) emJs.push({ name: exportName.slice('__em_js__'.length), text: cString(at) });
  }
  const emAsm: string[] = [];
  const start = address('__start_em_asm');
  const stop = address('__stop_em_asm');
  if (start !== null && stop !== null && start >= 0 && stop <= image.length) {
    for (let at = start; at < stop;) {
      const end = image.indexOf(0, at);
      emAsm.push(cString(at));
      if (end === -1) break;
      at = end + 1;
    }
  }
  return { emJs, emAsm };
}
