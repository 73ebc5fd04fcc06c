/**
 * Three changes to the dynamic linker of the LEGACY distribution (Pyodide 0.17.1's Emscripten runtime, pyodide.asm.js),
 * applied to its source text before it runs. The patched text is matched exactly (one hash, three anchors): the
 * distribution is pinned, and a different build is refused rather than patched blind.
 *
 * 1. A lazy global offset table. Emscripten links side modules (`.so`) through `GOT`: one `WebAssembly.Global` per
 *    symbol, holding a data address or, for a function, its index in the indirect function table. 0.17.1's
 *    `updateGOT` fills it EAGERLY: for every export of the interpreter and of every side module it creates the Global
 *    and adds a function to the table. Measured with the scientific stack imported: 38,141 entries (29,087 at boot),
 *    of which the side modules asked for 259. Each costs a Global, its backing store and a table slot, and on Node 20
 *    and 22 every WebAssembly instance keeps its own copy of the table: 374 → 313 MB RSS per idle scientific session
 *    on Node 20, 310 → 298 MB on Node 24 (scratch probe, one session, stack imported).
 *    Here an export only records its value; the entry is made the first time anything reads `GOT[name]` (a side
 *    module importing it through `GOT.mem` / `GOT.func`, `reportUndefinedSymbols`, `getMemory`) and gets the value
 *    the eager code would have given it: the first definition wins unless an `orig$` export replaces it, and a
 *    function already in the table keeps its index (`addFunctionWasm` looks it up).
 *
 * 2. Calls from JavaScript through a function pointer find the plain function. Pyodide builds with binaryen's
 *    function-pointer-cast emulation: a function C code can call through a pointer is exported twice, emulated
 *    (`byn$fpcast-emu$f`, 64-bit integer parameters) and plain (`f`). `dynCall`, which every `invoke_*` wrapper uses
 *    (C++ exceptions, setjmp), swaps an emulated function's index for the plain one's through `dyncallInvokeMap`,
 *    which 0.17.1's eager `updateGOT` filled from GOT entries: one index per symbol NAME, the first module's. So a pointer to a module's
 *    own `__static_16` (a name many modules export), or to a function its element segment lists at a second index,
 *    was called emulated with JavaScript numbers and 0.17.1 died ("Cannot convert 8 to a BigInt"), ending the
 *    session: `numpy.fft.fft(numpy.ones(8))` did, before this change too. Now each module's pairs are recorded by
 *    function object when it loads (`dyncallInvokeMap` stays empty), and `dynCall` calls the plain function of
 *    whatever emulated function it finds in the table.
 *
 * 3. A library loaded by `dlopen` (every C extension `import` loads: see sideModulesOnDemand in legacy.ts) does not
 *    keep its bytes. `loadWebAssemblyModule`'s closures (`loadModule`, `resolveSymbol`, `postInstantiation`) outlive
 *    the load and hold the `.so` file's bytes, read whole from the file system, for the session's life, though V8
 *    copied them when it compiled: 15 MB with the scientific stack imported (heap snapshot of the worker, Node 20).
 *    Once the library is loaded, its buffer is detached (legacy.ts, releaseLibraryBytes). The buffer is
 *    the loader's own: `FS.readFile` returns a new array each time.
 */
import { createHash } from 'node:crypto';
/** 0.17.1's `var GOT={};`, replaced by the lazy table. */
const GOT_DECLARATION = 'var GOT={};';
/** 0.17.1's `updateGOT`, from its first character up to (not including) UPDATE_GOT_END; its hash is UPDATE_GOT_SHA256. */
const UPDATE_GOT_START = 'function updateGOT(exports){';
const UPDATE_GOT_END = 'Module["updateGOT"]=updateGOT;';
const UPDATE_GOT_SHA256 = '36d5dcecd60e384e1ac089aca0cde775d5eaaa87339524d4093ceeb801f44977';
/** 0.17.1's pointer swap at the top of `dynCall`. */
const DYNCALL_SWAP = 'if(ptr in dyncallInvokeMap){ptr=dyncallInvokeMap[ptr]}';
/** 0.17.1's synchronous load of a library's bytes (the `dlopen` path), at the end of `getLibModule`. */
const SYNC_LIBRARY_LOAD = 'return loadWebAssemblyModule(loadLibData(lib),flags)}';
/** The same load, then the bytes let go (RELEASE_LIBRARY_BYTES: a parameter of the script's wrapper, see legacy.ts). */
const SYNC_LIBRARY_LOAD_RELEASED = 'var libData=loadLibData(lib);var libModule=loadWebAssemblyModule(libData,flags);RELEASE_LIBRARY_BYTES(libData);return libModule}';
/**
 * The lazy table, and each module's emulated → plain pairs. Runs inside pyodide.asm.js's module function, where
 * `isInternalSym`, `addFunctionWasm`, `functionsInTableMap`, `wasmTable` and `err` are in scope.
 * `functionsInTableMap` (function → table index) is made at the interpreter's `updateGOT`, as the eager code's first
 * `addFunctionWasm` did: every side module's load adds its table elements to it.
 */
const LAZY_GOT = `
var GOT_ENTRIES = {};
var GOT_PENDING = new Map();
var GOT_EMULATED_PREFIX = "byn$fpcast-emu$";
var GOT_PLAIN_PREFIX = "$no-fpcast-emu$";
var PLAIN_OF_EMULATED = new WeakMap();
var GOT = new Proxy(GOT_ENTRIES, {
  get: function (entries, name) {
    if (typeof name === "string" && !entries[name] && GOT_PENDING.has(name)) {
      var value = GOT_PENDING.get(name);
      GOT_PENDING.delete(name);
      defineGOT(name, value, false);
    }
    return entries[name];
  },
});
function defineGOT(name, value, replace) {
  var entry = GOT_ENTRIES[name];
  if (!entry) entry = GOT_ENTRIES[name] = new WebAssembly.Global({ value: "i32", mutable: true });
  if (replace || entry.value == 0) {
    if (typeof value === "function") entry.value = addFunctionWasm(value);
    else if (typeof value === "number") entry.value = value;
    else err("unhandled export type for \`" + name + "\`: " + typeof value);
  }
}
function updateGOT(exports) {
  if (!functionsInTableMap) {
    functionsInTableMap = new WeakMap();
    for (var i = 0; i < wasmTable.length; i++) {
      var item = wasmTable.get(i);
      if (item) functionsInTableMap.set(item, i);
    }
  }
  for (var symName in exports) {
    if (isInternalSym(symName)) continue;
    var value = exports[symName];
    var replace = symName.indexOf("orig$") == 0;
    if (replace) symName = symName.substring(5);
    var name = symName;
    if (typeof value === "function") {
      if (symName.startsWith(GOT_EMULATED_PREFIX)) {
        name = symName.substring(GOT_EMULATED_PREFIX.length);
        var plainFunction = exports[name];
        if (typeof plainFunction === "function") PLAIN_OF_EMULATED.set(value, plainFunction);
      } else if (GOT_EMULATED_PREFIX + symName in exports) {
        name = GOT_PLAIN_PREFIX + symName;
      }
    }
    if (GOT_ENTRIES[name]) defineGOT(name, value, replace);
    else if (replace || !GOT_PENDING.has(name)) GOT_PENDING.set(name, value);
  }
}
`;
/**
 * dynCall's pointer swap, by function object instead of by index: `dyncallInvokeMap` is no longer filled (the eager
 * `updateGOT` did that), and PLAIN_OF_EMULATED knows every module's pairs. Runs in pyodide.asm.js's scope.
 */
const DYNCALL_SWAP_BY_FUNCTION = 'var plainFunction=PLAIN_OF_EMULATED.get(wasmTable.get(ptr));if(plainFunction)return plainFunction.apply(null,args);';
const sha256 = (text) => createHash('sha256').update(text).digest('hex');
/** `source` with its one `needle` replaced, or an error that names what is missing. */
function replaceOnce(source, needle, replacement) {
    const at = source.indexOf(needle);
    if (at === -1 || source.indexOf(needle, at + 1) !== -1) {
        throw new Error(`legacy runtime: pyodide.asm.js is not the pinned 0.17.1 build (${JSON.stringify(needle)} ${at === -1 ? 'missing' : 'repeated'})`);
    }
    return source.slice(0, at) + replacement + source.slice(at + needle.length);
}
/** pyodide.asm.js with the three changes (see the file comment). */
export function withLinkerPatches(source) {
    const start = source.indexOf(UPDATE_GOT_START);
    const end = start === -1 ? -1 : source.indexOf(UPDATE_GOT_END, start);
    if (end === -1 || sha256(source.slice(start, end)) !== UPDATE_GOT_SHA256) {
        throw new Error('legacy runtime: pyodide.asm.js is not the pinned 0.17.1 build (its updateGOT differs)');
    }
    const withoutEagerTable = source.slice(0, start) + source.slice(end);
    const withLazyTable = replaceOnce(withoutEagerTable, GOT_DECLARATION, LAZY_GOT);
    return replaceOnce(replaceOnce(withLazyTable, DYNCALL_SWAP, DYNCALL_SWAP_BY_FUNCTION), SYNC_LIBRARY_LOAD, SYNC_LIBRARY_LOAD_RELEASED);
}
