/**
 * The allow-list of globals (layer 4 of the lockdown, lockdown.ts): after boot, everything on `globalThis` that is not
 * a plain ECMAScript built-in or a web API that only computes is removed; `process` becomes a small inert stand-in
 * (Emscripten reads a few fields at run time) and `console` writes to the log sink.
 *
 * Why: Python reaches the realm's global object through `import js`; whatever it holds after boot is user code's
 * (the real `process`, `require`, MessagePort, fetch, undici's global dispatcher...). An allow-list fails closed: a
 * global a new Node line adds is removed until someone decides it is harmless.
 */
import realProcess from 'node:process';

/**
 * Global names kept after lockdown (object/function valued ones; primitive-valued globals are always kept, e.g.
 * the sloppy-mode implicit globals of Emscripten 0.17). Everything else is deleted. ECMAScript built-ins plus web
 * APIs that only compute: no I/O, no network, no threads, no messaging.
 */
const KEPT_GLOBALS = new Set([
  // ECMAScript
  'AggregateError',
  'Array',
  'ArrayBuffer',
  'Atomics',
  'BigInt',
  'BigInt64Array',
  'BigUint64Array',
  'Boolean',
  'DataView',
  'Date',
  'Error',
  'EvalError',
  'FinalizationRegistry',
  'Float32Array',
  'Float64Array',
  'Function',
  'Int16Array',
  'Int32Array',
  'Int8Array',
  'Intl',
  'JSON',
  'Map',
  'Math',
  'Number',
  'Object',
  'Promise',
  'Proxy',
  'RangeError',
  'ReferenceError',
  'Reflect',
  'RegExp',
  'Set',
  'SharedArrayBuffer',
  'String',
  'Symbol',
  'SyntaxError',
  'TypeError',
  'URIError',
  'Uint16Array',
  'Uint32Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'WeakMap',
  'WeakRef',
  'WeakSet',
  'WebAssembly',
  'decodeURI',
  'decodeURIComponent',
  'encodeURI',
  'encodeURIComponent',
  'escape',
  'unescape',
  'eval',
  'isFinite',
  'isNaN',
  'parseFloat',
  'parseInt',
  'globalThis',
  'global',
  // Web APIs that only compute (Pyodide's asyncio loop needs the timers; Emscripten needs crypto.getRandomValues)
  'AbortController',
  'AbortSignal',
  'Blob',
  'DOMException',
  'Event',
  'EventTarget',
  'CustomEvent',
  'TextDecoder',
  'TextEncoder',
  'TextDecoderStream',
  'TextEncoderStream',
  'URL',
  'URLSearchParams',
  'atob',
  'btoa',
  'queueMicrotask',
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'setImmediate',
  'clearImmediate',
  'structuredClone',
  'crypto',
  'Crypto',
  'CryptoKey',
  'SubtleCrypto',
  'performance',
  'Performance',
  'PerformanceEntry',
  'PerformanceMark',
  'PerformanceMeasure',
  'PerformanceObserver',
  'PerformanceObserverEntryList',
  'PerformanceResourceTiming',
  'ReadableStream',
  'ReadableStreamDefaultReader',
  'ReadableStreamBYOBReader',
  'ReadableStreamBYOBRequest',
  'ReadableByteStreamController',
  'ReadableStreamDefaultController',
  'TransformStream',
  'TransformStreamDefaultController',
  'WritableStream',
  'WritableStreamDefaultWriter',
  'WritableStreamDefaultController',
  'ByteLengthQueuingStrategy',
  'CountQueuingStrategy',
  'CompressionStream',
  'DecompressionStream',
  'File',
  'Buffer',
  // Replaced below by inert stand-ins
  'process',
  'console',
  // Legacy 0.17.1 package scripts look the API up as a free global `pyodide` (it is what `pyodide_js` is anyway)
  'pyodide',
]);

/** Removes every global not in KEPT_GLOBALS; returns their names, sorted. */
export function cleanGlobals(log: (message: string) => void): string[] {
  const g = globalThis as Record<PropertyKey, unknown>;
  const removed: string[] = [];
  // Resolve every lazy global before deleting any: loading one may need another. Node 22+ exposes most web
  // globals as V8 lazy data properties that load their module when the descriptor is first read (Node 20 uses
  // getters instead); measured on Node 24.21, FormData/Headers/... load undici, which reads the global MessagePort,
  // so deleting MessagePort first broke every boot. Kept getters (process, Buffer, performance, crypto) run now too.
  for (const key of Reflect.ownKeys(g)) {
    const descriptor = Reflect.getOwnPropertyDescriptor(g, key);
    if (descriptor?.get && typeof key === 'string' && KEPT_GLOBALS.has(key)) Reflect.apply(descriptor.get, g, []);
  }
  for (const key of Reflect.ownKeys(g)) {
    if (typeof key === 'string' && KEPT_GLOBALS.has(key)) continue;
    const descriptor = Reflect.getOwnPropertyDescriptor(g, key)!;
    const isPrimitive =
      'value' in descriptor &&
      (descriptor.value === null || (typeof descriptor.value !== 'object' && typeof descriptor.value !== 'function'));
    if (isPrimitive) continue;
    // A non-configurable global cannot be deleted, only emptied for good. Measured on Node 22.23 and 24.21: undici
    // (loaded by the resolution above) keeps its global Agent, which opens real TCP connections, in
    // globalThis[Symbol.for('undici.globalDispatcher.N')] with configurable: false, writable: true.
    const emptied = () =>
      'value' in descriptor && descriptor.writable === true && Reflect.defineProperty(g, key, { value: undefined, writable: false });
    if (!Reflect.deleteProperty(g, key) && !emptied()) throw new Error(`lockdown: cannot remove global ${String(key)}`);
    removed.push(String(key));
  }
  Object.defineProperty(g, 'process', { value: inertProcess(), writable: true, configurable: true, enumerable: false });
  Object.defineProperty(g, 'console', { value: quietConsole(log), writable: true, configurable: true, enumerable: false });
  return removed.sort();
}

/**
 * What Emscripten and Pyodide read from `process` after boot (getuid/umask syscalls, uname, exit codes,
 * runtime detection), and nothing else. No env, no argv, no signals, no bindings, no stdio.
 */
function inertProcess(): object {
  const versions = Object.freeze({ node: realProcess.versions.node });
  return Object.seal({
    title: 'pyodide',
    version: realProcess.version,
    versions,
    platform: realProcess.platform,
    arch: realProcess.arch,
    browser: false,
    env: Object.freeze({}),
    argv: Object.freeze([]),
    exitCode: undefined as number | undefined,
    getuid: () => 0,
    geteuid: () => 0,
    getgid: () => 0,
    getegid: () => 0,
    umask: () => 0o022,
    cwd: () => '/',
    nextTick: (callback: (...args: unknown[]) => void, ...args: unknown[]) => queueMicrotask(() => callback(...args)),
  });
}

/** Console that writes to the worker's log sink (the host bounds and rate-limits it), never to stdout. */
function quietConsole(log: (message: string) => void): object {
  const write = (...args: unknown[]) => log(`[js console] ${args.map((a) => String(a)).join(' ')}`);
  return Object.freeze({ log: write, info: write, warn: write, error: write, debug: write, trace: write });
}
