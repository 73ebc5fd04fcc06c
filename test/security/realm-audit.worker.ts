/**
 * Worker for realm-audit.test.ts: boots a runtime exactly as a session worker does (prepareSandbox → boot →
 * lockdown, same execArgv from the host), then walks everything reachable from the realm's global object and
 * from the Pyodide API object, WITHOUT calling getters or functions, and reports every path that reaches a
 * dangerous object. Dangerous objects are identified by identity (captured here before lockdown) and by the names
 * of their properties.
 */
import * as childProcess from 'node:child_process';
import fsDefault, * as fsNamespace from 'node:fs';
import nodeModule from 'node:module';
import * as net from 'node:net';
import realProcess from 'node:process';
import vm from 'node:vm';
import * as workerThreads from 'node:worker_threads';
import { bootRuntime } from '../../workers/thread/runtime/index.js';
import { blockingSleep } from '../../workers/thread/blocking-sleep.js';
import { LiveOutput } from '../../workers/thread/live-output.js';
import { cellScope } from '../../workers/thread/realm/cell-scope.js';
import { lockdown, prepareSandbox } from '../../workers/thread/realm/lockdown.js';

const init = workerThreads.workerData as { kind: 'modern' | 'legacy'; distDir: string; control?: boolean };

/** Objects that must not be reachable after lockdown, by identity. */
const forbidden = (port: workerThreads.MessagePort) =>
  new Map<unknown, string>([
    [realProcess, 'the real process object'],
    // Their internal MessagePort speaks Node's worker protocol: a forged message there crashes the host (measured).
    [realProcess.stdin, 'process.stdin'],
    [realProcess.stdout, 'process.stdout'],
    [realProcess.stderr, 'process.stderr'],
    [fsDefault, 'node:fs'],
    [fsNamespace, 'node:fs namespace'],
    [fsDefault.promises, 'node:fs/promises'],
    [childProcess, 'node:child_process'],
    [net, 'node:net'],
    [vm, 'node:vm'],
    [vm.Script, 'vm.Script'],
    [nodeModule, 'node:module (CJS Module)'],
    [workerThreads, 'node:worker_threads'],
    [workerThreads.Worker, 'Worker constructor'],
    [port, 'the worker parentPort'],
    [Object.getPrototypeOf(port), 'MessagePort.prototype'],
    [workerThreads.MessageChannel, 'MessageChannel'],
    [workerThreads.BroadcastChannel, 'BroadcastChannel'],
    [globalThis.fetch, 'fetch'],
  ]);

/** Property names that betray a Node built-in module or a host-facing capability. */
const suspiciousNames = new Set([
  'readFileSync',
  'writeFileSync',
  'openSync',
  'spawnSync',
  'execSync',
  'fork',
  'dlopen',
  'binding',
  '_linkedBinding',
  'reallyExit',
  'getBuiltinModule',
  'createRequire',
  '_load',
  'runInThisContext',
  'compileFunction',
  'createConnection',
  'createServer',
  'createSocket',
  'globalAgent',
  'parentPort',
  'receiveMessageOnPort',
  'kill',
  'setEnvironmentData',
  'writeHeapSnapshot',
  'require',
]);

/** Functions compiled from WebAssembly (CPython's libc `kill`, `fork`, `dlopen` are wasm, not Node) and wasm globals. */
function isWasmThing(value: unknown): boolean {
  const wasm = (globalThis as any).WebAssembly;
  if (value instanceof wasm.Global) return true;
  return typeof value === 'function' && /^\d+$/.test(value.name) && /\[native code\]/.test(Function.prototype.toString.call(value));
}

/** Emscripten's in-memory socket layer: its createSocket makes an FS node; network peers are stubbed (see lockdown). */
const allowedNames = new Set(['pyodide_js._module.SOCKFS.createSocket']);

async function main(port: workerThreads.MessagePort): Promise<void> {
  const forbiddenObjects = forbidden(port);
  prepareSandbox();
  const runtime = await bootRuntime(init.kind, { distDir: init.distDir, wheelsDir: null, log: () => {} });
  // control: walk WITHOUT lockdown, to show the walk finds what it looks for.
  const report = init.control
    ? { removedGlobals: [], permissionModel: 'skipped' }
    : await lockdown({
        runtime,
        log: () => {},
        liveOutput: new LiveOutput(() => {}).send,
        sleep: blockingSleep(new Int32Array(new SharedArrayBuffer(4))),
      });
  // The worker's own call into Python after lockdown (cell-scope.ts refuses any other outside a cell).
  const api = (await cellScope.host(() => runtime.runPython(`__import__('pyodide_js')`))) as Record<string, any>;
  const isPyProxy = (value: unknown): boolean => {
    try {
      if (typeof api.isPyProxy === 'function') return api.isPyProxy(value) as boolean;
      return value instanceof (api.ffi.PyProxy as new () => unknown);
    } catch {
      return true;
    }
  };
  // What user code gets back from a timer: after lockdown only inside a cell, and a plain number (a Node Timeout
  // would hand out refresh() and its constructor, which schedule around the cell scope).
  if (!init.control) cellScope.begin();
  const timer = setTimeout(() => {}, 1_000_000) as unknown;
  if (!init.control) cellScope.end();
  const roots: [unknown, string][] = [
    [globalThis, 'globalThis'],
    [api, 'pyodide_js'],
    [api._module, 'pyodide_js._module'],
    [api._api, 'pyodide_js._api'],
    [timer, '<a Timeout>'],
  ];
  const seen = new Set<unknown>();
  const findings: string[] = [];
  if (!init.control && typeof timer !== 'number') findings.push(`setTimeout returned a ${typeof timer}, not a number`);
  // Breadth first, read by an index: shift() on a queue this long moved its entries each time (quadratic).
  const queue: [unknown, string][] = [...roots];
  let visited = 0;
  for (let next = 0; next < queue.length; next++) {
    const [object, path] = queue[next]!;
    if ((typeof object !== 'object' && typeof object !== 'function') || object === null || seen.has(object)) continue;
    seen.add(object);
    visited++;
    if (forbiddenObjects.has(object)) findings.push(`${path} is ${forbiddenObjects.get(object)}`);
    if (ArrayBuffer.isView(object) || object instanceof ArrayBuffer || object instanceof SharedArrayBuffer) continue;
    if (isPyProxy(object)) continue;
    let keys: (string | symbol)[];
    try {
      keys = Reflect.ownKeys(object);
    } catch {
      continue;
    }
    for (const key of keys) {
      const name = String(key);
      let descriptor: PropertyDescriptor | undefined;
      try {
        descriptor = Reflect.getOwnPropertyDescriptor(object, key);
      } catch {
        continue;
      }
      if (!descriptor) continue;
      if (typeof key === 'string' && suspiciousNames.has(key) && !isWasmThing(descriptor.value) && !allowedNames.has(`${path}.${name}`)) {
        findings.push(`${path}.${name} (suspicious name)`);
      }
      if ('value' in descriptor) queue.push([descriptor.value, `${path}.${name}`]);
      if (descriptor.get) {
        queue.push([descriptor.get, `${path}.${name}<get>`]);
        // User code can call any getter (e.g. `js.process` is one in Node), so follow what it returns too.
        try {
          const value: unknown = Reflect.apply(descriptor.get, object, []);
          if (value instanceof Promise) value.catch(() => {}); // e.g. stream getters called on their prototype
          queue.push([value, `${path}.${name}`]);
        } catch {
          // getter for another receiver (prototype accessors)
        }
      }
      if (descriptor.set) queue.push([descriptor.set, `${path}.${name}<set>`]);
    }
    try {
      queue.push([Reflect.getPrototypeOf(object), `${path}.__proto__`]);
    } catch {
      // revoked proxy
    }
  }
  clearTimeout(timer as NodeJS.Timeout);
  let evalWorks = true;
  try {
    new Function('return 1');
  } catch {
    evalWorks = false;
  }
  const importWorks = await import('node:net').then(
    () => true,
    () => false,
  );
  port.postMessage({ visited, findings, report, evalWorks, importWorks, hasProcessBinding: typeof (globalThis as any).process?.binding });
}

// `npm test` runs every .js under dist/test/ as a test file: outside a worker this module does nothing.
const port = workerThreads.parentPort;
if (port) main(port).catch((error: Error) => port.postMessage({ error: String(error?.stack ?? error) }));
