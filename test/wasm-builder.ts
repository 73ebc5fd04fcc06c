/**
 * Minimal Emscripten side modules written byte by byte (WebAssembly binary format 1, with a `dylink.0` section), for
 * tests that need a library with given EM_JS / EM_ASM strings and nothing else: the snippet reader's unit tests, and
 * the security test of a library that is not from a verified wheel. The real compiled fixtures are built from C by
 * scripts/build-compiled-fixtures (they need a toolchain); these need none.
 */

function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

const name = (text: string) => {
  const bytes = [...new TextEncoder().encode(text)];
  return [...leb(bytes.length), ...bytes];
};
const vec = (items: number[][]) => [...leb(items.length), ...items.flat()];
const section = (id: number, body: number[]) => [id, ...leb(body.length), ...body];

/** What the side module holds: its data (placed at __memory_base + offset) and exported data addresses. */
export interface SideModuleSpec {
  /** Data segments: relative offset and bytes. `extendedConst` writes the offset as base + i32.const (extended-const). */
  segments: { offset: number; bytes: Uint8Array | string; extendedConst?: boolean; passive?: boolean }[];
  /** Exported i32 globals (data addresses relative to __memory_base), e.g. {'__em_js__f': 0}. */
  exports: Record<string, number>;
}

const asBytes = (data: Uint8Array | string) => [...(typeof data === 'string' ? new TextEncoder().encode(data) : data)];

/** The module's bytes. */
export function sideModule(spec: SideModuleSpec): Uint8Array {
  const memSize = spec.segments.reduce((max, s) => Math.max(max, s.offset + asBytes(s.bytes).length), 0);
  // dylink.0 with WASM_DYLINK_MEM_INFO: mem_size, mem_align, table_size, table_align.
  const memInfo = [...leb(memSize), 0, 0, 0];
  const dylink = section(0, [...name('dylink.0'), 1, ...leb(memInfo.length), ...memInfo]);
  const imports = section(
    2,
    vec([
      [...name('env'), ...name('memory'), 2, 0, ...leb(1)],
      [...name('env'), ...name('__memory_base'), 3, 0x7f, 0],
    ]),
  );
  const names = Object.keys(spec.exports);
  const globals = section(6, vec(names.map((n) => [0x7f, 0, 0x41, ...sleb(spec.exports[n]!), 0x0b])));
  // Defined globals come after the one imported global (__memory_base, index 0).
  const exports = section(7, vec(names.map((n, i) => [...name(n), 3, ...leb(i + 1)])));
  const data = section(
    11,
    vec(
      spec.segments.map((s) => {
        const bytes = asBytes(s.bytes);
        if (s.passive) return [1, ...leb(bytes.length), ...bytes];
        const offset = s.extendedConst ? [0x23, 0, 0x41, ...sleb(s.offset), 0x6a, 0x0b] : [0x23, 0, 0x0b];
        if (!s.extendedConst && s.offset !== 0) throw new Error('a plain offset is __memory_base itself; use extendedConst');
        return [0, ...offset, ...leb(bytes.length), ...bytes];
      }),
    ),
  );
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...dylink, ...imports, ...globals, ...exports, ...data]);
}

/**
 * A side module carrying `emJs` functions ({name: '(sig)<::>body'}) and `emAsm` bodies, laid out as current
 * Emscripten lays them out: EM_JS strings first, then the em_asm run bounded by __start_em_asm / __stop_em_asm.
 */
export function snippetModule(emJs: Record<string, string>, emAsm: string[]): Uint8Array {
  let text = '';
  const exports: Record<string, number> = {};
  for (const [fn, body] of Object.entries(emJs)) {
    exports[`__em_js__${fn}`] = new TextEncoder().encode(text).length;
    text += `${body}\0`;
  }
  const start = new TextEncoder().encode(text).length;
  text += emAsm.map((body) => `${body}\0`).join('');
  if (emAsm.length > 0) {
    exports.__start_em_asm = start;
    exports.__stop_em_asm = new TextEncoder().encode(text).length;
  }
  return sideModule({ segments: [{ offset: 0, bytes: text }], exports });
}
