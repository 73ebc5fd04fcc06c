/**
 * The in-worker half of the sandbox. Python reaches the worker's JavaScript realm through `import js`,
 * `pyodide_js`, `pyodide.code.run_js` and every JsProxy's `.constructor.constructor`; none of those routes can be
 * closed, so this module makes the REALM harmless instead: whatever Python can reach must hold nothing dangerous.
 *
 * Layers (each measured on Node 20.20, see test/security/):
 *  1. Per-worker Node permission model (set by the host through the worker's execArgv, src/sandbox/worker-sandbox.ts):
 *     file reads only from the distribution/package directories, no writes, no child processes, no workers,
 *     no native addons, no `process.binding`. Enforced in C++; `checkPermissionModel` verifies it from inside.
 *  2. Code generation from strings is off in session workers (host-side V8 flag, src/sandbox/worker-sandbox.ts), so
 *     `eval`, `Function(...)`, `run_js` throw EvalError: user code can only call functions that already exist.
 *  3. Import firewall: `prepareSandbox()` (before boot) registers module hooks and wraps the CommonJS loader;
 *     `lockdown()` (after boot, before the first request) latches both, so no `import()` and no `require()` of
 *     anything (node:net, node:fs, data: URLs...) can succeed in this thread afterwards, whoever calls it.
 *  4. Allow-list of globals: after boot everything on `globalThis` that is not a plain ECMAScript / harmless web
 *     API is removed. `process` becomes a small inert stand-in (Emscripten reads a few fields at run time),
 *     `console` writes to the log sink. Node-backed Emscripten file systems (NODEFS...) and Pyodide's host-facing
 *     helpers (mountNodeFS, initializeNodeSockFS, loadBinaryFile...) are replaced by functions that throw.
 *  5. `createGuardedPost`: what the worker sends to the host is size- and rate-bounded by a closure user code
 *     cannot reach, so even a tampered harness cannot flood the host.
 *
 * Everything the worker needs later (parentPort, the interrupt buffer, fs for package files) is held in module
 * closures captured before any user code runs; nothing of it is reachable from the realm's global object.
 */
import { constants as fsConstants } from 'node:fs';
import nodeModule, { register } from 'node:module';
import { constants as osConstants } from 'node:os';
import realProcess from 'node:process';
import { types as utilTypes } from 'node:util';
import { MAX_LOG_CHARS } from '../../src/wire-limits.js';
import { cellScope } from './cell-scope.js';
import { LATCH_SPECIFIER, REFUSAL, resolveSync } from './import-firewall.js';
/** Text of every refusal by the sandbox (tests match on it). */
export const SANDBOX_REFUSAL = 'disabled in the pyodide-mcp sandbox';
let latched = false;
let prepared = false;
/** Emscripten's FS.ErrnoError, known once booted: stubs throw it so that Python sees an OSError, not a crash. */
let errnoError = null;
const EHOSTUNREACH = 23;
const EOPNOTSUPP = 138;
/**
 * Call once, first thing in the worker, BEFORE the runtime boots: installs the import firewall (ESM hooks) and the
 * CommonJS loader guard, both still open. Pyodide needs imports/require while it boots.
 */
export function prepareSandbox() {
    if (prepared)
        return;
    prepared = true;
    // In-thread hooks where Node has them (22.15+), else the hooks thread of module.register (Node 20), which needs
    // --allow-worker; the host decides that flag by the same test (src/sandbox/worker-sandbox.ts).
    if (inThreadHooks())
        nodeModule.registerHooks({ resolve: resolveSync });
    else
        register(new URL('./import-firewall.js', import.meta.url));
    // Emscripten (modern pyodide.asm.mjs) keeps a module-local `require` from createRequire; e.g. os.system() does
    // require('node:child_process'), crypto is required lazily. ESM hooks do not see require(); this guard does.
    const loader = nodeModule;
    const load = loader._load;
    const apply = Reflect.apply;
    // os.system() in Emscripten's Node mode is require('node:child_process').spawnSync(cmd, {shell: true, stdio:
    // 'inherit'): a real shell writing to the MCP stdout. After lockdown it gets this stub instead (a throw inside a
    // syscall would be a Pyodide fatal error): the command is not run and os.system returns 127 << 8.
    const noChildProcess = Object.freeze({
        spawnSync: () => Object.freeze({ status: 127, signal: null, pid: 0, output: [], stdout: null, stderr: null }),
    });
    // Emscripten's SOCKFS in Node mode: connect() does `new (require('ws'))(url)` (a real outbound WebSocket) and
    // listen() `new (require('ws').Server)(...)` (a real listening server). After lockdown: OSError, nothing opened.
    const osError = (errno) => (errnoError ? new errnoError(errno) : new Error(`sockets are ${SANDBOX_REFUSAL}`));
    const noWs = Object.freeze(Object.assign(function WebSocket() {
        throw osError(EHOSTUNREACH);
    }, {
        Server: function WebSocketServer() {
            throw osError(EOPNOTSUPP);
        },
    }));
    loader._load = function guardedLoad(...args) {
        if (latched && (args[0] === 'node:child_process' || args[0] === 'child_process'))
            return noChildProcess;
        if (latched && args[0] === 'ws')
            return noWs;
        if (latched)
            throw new Error(`require(${JSON.stringify(String(args[0])).slice(0, 200)}) is ${SANDBOX_REFUSAL}`);
        return apply(load, this, args);
    };
    // Emscripten's NODEFS.staticInit (run while pyodide.asm.mjs boots) reads process.binding('constants').fs, and
    // the permission model refuses process.binding altogether. Serve that one pure-data answer; refuse the rest.
    const binding = realProcess.binding;
    const constants = Object.freeze({ fs: fsConstants, os: osConstants });
    realProcess.binding = function guardedBinding(name) {
        if (name === 'constants')
            return constants;
        return apply(binding, this, [name]);
    };
}
/** Whether this Node runs module hooks in-thread (`module.registerHooks`); not a named import: absent on Node 20. */
function inThreadHooks() {
    return typeof nodeModule.registerHooks === 'function';
}
/**
 * Stand-in for `Function` in the legacy (0.17.1) pyodide.asm.js, passed as a wrapper parameter named `Function`.
 * 0.17 makes callable PyProxy targets with `Reflect.construct(Function, [], cls)`, which needs code generation from
 * strings (off in session workers). This builds the same thing, an empty function whose prototype is
 * `cls.prototype`, without compiling a string. Called with a body (real code), it refuses like `Function` would.
 */
export const CallableTargetConstructor = function CallableTarget(...args) {
    if (args.length > 0 || new.target === undefined) {
        throw new EvalError(`Code generation from strings is ${SANDBOX_REFUSAL}`);
    }
    const target = function () { };
    Object.setPrototypeOf(target, new.target.prototype);
    return target;
};
Object.defineProperty(CallableTargetConstructor, 'prototype', { value: Function.prototype });
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
/** Emscripten file-system types backed by the host (Node fs / sockets); removed from FS.filesystems. */
const HOST_FILESYSTEMS = ['NODEFS', 'NODERAWFS', 'NODESOCKFS'];
/** Pyodide helpers that touch the host (or load code); each is replaced by a function that throws. */
const HOST_HELPERS = {
    // setStdout/setStderr/setStdin with no options rebuild Node-mode streams from the realm's `process`, which user
    // code can replace: `{stdout: {fd: 1}}` then wrote raw bytes to the process's fd 1 (the MCP stream in thread
    // isolation) or fd 3 (a session process's channel). The harness captures output in Python; nothing needs these.
    api: ['mountNodeFS', 'mountNativeFS', 'setStdout', 'setStderr', 'setStdin'],
    internal: ['initializeNodeSockFS', 'loadBinaryFile', 'loadScript'],
};
function refuse(what) {
    return () => {
        throw new Error(`${what} is ${SANDBOX_REFUSAL}`);
    };
}
/**
 * Call once after the runtime, packages and harness are ready and BEFORE the first request is served. Throws (so
 * the worker reports boot_failed) if a layer could not be put in place: fail closed.
 */
export async function lockdown({ runtime, log }) {
    if (!prepared)
        throw new Error('lockdown: prepareSandbox() was not called before boot');
    // 1. Things Emscripten initialises lazily through require(): do them now, while require still works.
    runtime.runPython(`(lambda os, random, time: (os.urandom(16), random.random(), time.time(), time.localtime(), os.getcwd()) and None)` +
        `(__import__('os'), __import__('random'), __import__('time'))`);
    // 2. Pyodide's host-facing helpers and the Node-backed file systems.
    const api = runtime.runPython(`__import__('pyodide_js')`);
    if (!api || typeof api !== 'object')
        throw new Error('lockdown: could not reach the pyodide API object');
    const internal = (api._api ?? {});
    // Pyodide's default stdin in Node wraps the worker's `process.stdin`, whose internal MessagePort carries Node's
    // own worker protocol: a forged message there crashes the HOST (measured on Node 20.20: a `stdioPayload` for an
    // unknown stream throws in the parent's handler, an uncaught TypeError). Replace it: reading stdin raises OSError (EIO) as before.
    if (typeof api.setStdin === 'function')
        api.setStdin({ error: true });
    for (const name of HOST_HELPERS.api)
        if (name in api)
            api[name] = refuse(`pyodide.${name}`);
    for (const name of HOST_HELPERS.internal)
        if (name in internal)
            internal[name] = refuse(`pyodide._api.${name}`);
    const module = (api._module ?? {});
    const FS = (runtime.FS ?? module.FS);
    if (!FS || typeof FS.filesystems !== 'object')
        throw new Error('lockdown: could not reach the Emscripten FS');
    errnoError = FS.ErrnoError;
    const hostFs = new Set(HOST_FILESYSTEMS.map((name) => FS.filesystems[name] ?? FS[name]).filter(Boolean));
    const mounts = (typeof FS.getMounts === 'function' ? FS.getMounts(FS.root.mount) : []);
    for (const mount of mounts) {
        if (hostFs.has(mount.type))
            throw new Error(`lockdown: a host file system is mounted at ${mount.mountpoint}`);
    }
    for (const name of HOST_FILESYSTEMS) {
        if (FS.filesystems[name] !== undefined)
            delete FS.filesystems[name];
        if (FS[name] !== undefined)
            FS[name] = undefined;
        if (module[name] !== undefined)
            module[name] = undefined;
    }
    if (typeof module.mountNodeFS === 'function')
        module.mountNodeFS = refuse('mountNodeFS');
    // 3. Latch the import firewall and the require() guard, and check the latch holds.
    latched = true;
    await import(LATCH_SPECIFIER).then(() => {
        throw new Error('lockdown: the import firewall did not latch');
    }, (error) => {
        if (!String(error?.message).includes(REFUSAL))
            throw new Error(`lockdown: the import firewall is not installed (${error?.message})`);
    });
    const stillOpen = await import('node:fs').then(() => true, () => false);
    if (stillOpen)
        throw new Error('lockdown: import() still works after latching the firewall');
    // 4. The realm's globals: allow-list.
    const removedGlobals = cleanGlobals(log);
    // Security: from here user code runs only inside a cell (timers, promise reactions, calls into Python; cell-scope.ts).
    cellScope.install({ module, api, log });
    // 5. The permission model (layer 1), if the host asked for it, and no code generation from strings (layer 2).
    const permissionModel = checkPermissionModel();
    let codegen = true;
    try {
        new Function('');
    }
    catch (error) {
        codegen = !(error instanceof EvalError);
    }
    if (codegen)
        throw new Error('lockdown: code generation from strings is allowed in this worker (hardenWorkerIsolates was not applied)');
    return { removedGlobals, permissionModel };
}
function cleanGlobals(log) {
    const g = globalThis;
    const removed = [];
    // Resolve every lazy global before deleting any: loading one may need another. Node 22+ exposes most web
    // globals as V8 lazy data properties that load their module when the descriptor is first read (Node 20 uses
    // getters instead); measured on Node 24.21, FormData/Headers/... load undici, which reads the global MessagePort,
    // so deleting MessagePort first broke every boot. Kept getters (process, Buffer, performance, crypto) run now too.
    for (const key of Reflect.ownKeys(g)) {
        const descriptor = Reflect.getOwnPropertyDescriptor(g, key);
        if (descriptor?.get && typeof key === 'string' && KEPT_GLOBALS.has(key))
            Reflect.apply(descriptor.get, g, []);
    }
    for (const key of Reflect.ownKeys(g)) {
        if (typeof key === 'string' && KEPT_GLOBALS.has(key))
            continue;
        const descriptor = Reflect.getOwnPropertyDescriptor(g, key);
        const isPrimitive = 'value' in descriptor &&
            (descriptor.value === null || (typeof descriptor.value !== 'object' && typeof descriptor.value !== 'function'));
        if (isPrimitive)
            continue;
        // A non-configurable global cannot be deleted, only emptied for good. Measured on Node 22.23 and 24.21: undici
        // (loaded by the resolution above) keeps its global Agent, which opens real TCP connections, in
        // globalThis[Symbol.for('undici.globalDispatcher.N')] with configurable: false, writable: true.
        const emptied = () => 'value' in descriptor && descriptor.writable === true && Reflect.defineProperty(g, key, { value: undefined, writable: false });
        if (!Reflect.deleteProperty(g, key) && !emptied())
            throw new Error(`lockdown: cannot remove global ${String(key)}`);
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
function inertProcess() {
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
        exitCode: undefined,
        getuid: () => 0,
        geteuid: () => 0,
        getgid: () => 0,
        getegid: () => 0,
        umask: () => 0o022,
        cwd: () => '/',
        nextTick: (callback, ...args) => queueMicrotask(() => callback(...args)),
    });
}
/** Console that writes to the worker's log sink (the host bounds and rate-limits it), never to stdout. */
function quietConsole(log) {
    const write = (...args) => log(`[js console] ${args.map((a) => String(a)).join(' ')}`);
    return Object.freeze({ log: write, info: write, warn: write, error: write, debug: write, trace: write });
}
/** Layer 1 seen from inside: active when the host started this worker with the permission flags. */
export function checkPermissionModel() {
    const requested = realProcess.execArgv.some((arg) => arg === '--experimental-permission' || arg === '--permission');
    const permission = realProcess.permission;
    if (!permission) {
        if (requested)
            throw new Error('lockdown: the permission model was requested but is not active in this worker');
        return 'absent';
    }
    // 'worker' stays allowed only where the import firewall needs a hooks thread (Node 20; src/sandbox/worker-sandbox.ts).
    for (const scope of inThreadHooks() ? ['fs.write', 'child', 'worker'] : ['fs.write', 'child']) {
        if (permission.has(scope))
            throw new Error(`lockdown: the permission model allows ${scope} in this worker`);
    }
    return 'active';
}
export const DEFAULT_POST_LIMITS = {
    maxLogChars: MAX_LOG_CHARS,
    logsPerSecond: 200,
    logBurst: 2_000,
    maxMessageChars: 64_000_000,
};
/**
 * Returns the worker's `post(message, transfer)`: `port.postMessage` bound now (before user code can touch
 * MessagePort.prototype; `port` is the parent port, or the router of workers/direct-channel.ts), with log messages
 * cut and rate-limited, and any message whose strings exceed `maxMessageChars` replaced by an error reply (a
 * tampered harness could otherwise hand the host a giant string).
 */
export function createGuardedPost(port, limits = DEFAULT_POST_LIMITS) {
    // Everything is captured now, before user code exists: after lockdown user code owns the realm's prototypes and
    // could otherwise patch String.prototype.slice, Array iteration, Math.min... to defeat these bounds.
    const postMessage = port.postMessage.bind(port);
    const now = performance.now.bind(performance);
    const call = Function.prototype.call;
    const sliceString = call.bind(String.prototype.slice);
    const isArray = Array.isArray;
    const isView = ArrayBuffer.isView;
    // A brand check, like calling the byteLength getter, without the two exceptions per plain object that made this
    // walk cost as much as the cell itself (measured: 0.13 ms of a "1+1" reply under load).
    const isAnyArrayBuffer = utilTypes.isAnyArrayBuffer;
    const keys = Object.keys;
    const min = Math.min;
    const toText = String;
    const isBinary = (value) => isView(value) || isAnyArrayBuffer(value);
    let tokens = limits.logBurst;
    let last = now();
    let dropped = 0;
    const stringChars = (value, budget, depth = 0) => {
        if (typeof value === 'string')
            return value.length;
        // Binary data (file bytes) is not walked: its size is bounded by the workspace quota, not by this guard.
        if (value === null || typeof value !== 'object' || depth > 64 || isBinary(value))
            return 0;
        let total = 0;
        const names = isArray(value) ? null : keys(value);
        const count = names ? names.length : value.length;
        for (let i = 0; i < count && total <= budget; i++) {
            const item = names ? value[names[i]] : value[i];
            total += stringChars(item, budget - total, depth + 1);
        }
        return total;
    };
    return (message, transfer = []) => {
        if (message.type === 'log') {
            const t = now();
            tokens = min(limits.logBurst, tokens + ((t - last) / 1000) * limits.logsPerSecond);
            last = t;
            if (tokens < 1) {
                dropped++;
                return;
            }
            tokens--;
            let text = toText(message.message);
            if (dropped > 0) {
                text = `[${dropped} log message(s) dropped: rate limit] ${text}`;
                dropped = 0;
            }
            if (text.length > limits.maxLogChars)
                text = `${sliceString(text, 0, limits.maxLogChars)} [... ${text.length - limits.maxLogChars} characters cut]`;
            postMessage({ type: 'log', message: text });
            return;
        }
        if (stringChars(message, limits.maxMessageChars) > limits.maxMessageChars) {
            const id = message.id;
            if (message.type === 'reply' && typeof id === 'number') {
                postMessage({
                    id,
                    type: 'reply',
                    ok: false,
                    error: { code: 'WORKER_ERROR', message: `The reply exceeded ${limits.maxMessageChars} characters and was not sent.` },
                });
            }
            return;
        }
        postMessage(message, transfer);
    };
}
