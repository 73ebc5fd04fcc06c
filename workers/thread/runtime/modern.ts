/**
 * Adapter for the modern runtime: the official `pyodide` npm package (pinned exactly in package.json).
 * Packages come only from `wheelsDir` (filled by `npm run wheels:fetch`); the CDN is never contacted.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileFootprint, NO_FOOTPRINT, PACKAGE_METADATA, type Footprint } from '../archive-footprint.js';
import { loaderWithSnippets } from './em-snippet-loader.js';
import type { PackageFailure, PackageLoad } from '../../../src/wire/contract.js';
import { boundedReason } from '../../../src/wire/load-reasons.js';
import { installDynlibRollback } from './dynlib-rollback.js';
import { installPackageUnpack } from './package-unpack.js';
import type { BootOptions, EmscriptenFS, PythonRuntime } from './types.js';

/** How Pyodide's package loader introduces a package's failure on its error stream; the next message is the reason. */
const FAILURE_HEADER = /^The following error occurred while loading (.+):$/;

// Captured when the module loads, before user code exists (installFootprint).
const { apply } = Reflect;
const hasOwnProperty = Object.prototype.hasOwnProperty;

export async function bootModern(options: BootOptions): Promise<PythonRuntime> {
  const { loadPyodide } = await import('pyodide');
  const lockFileURL = options.lockFile ?? join(options.distDir, 'pyodide-lock.json');
  // Libraries with EM_JS / EM_ASM need their snippets compiled into the loader: sessions have no eval.
  const createPyodideModule = await loaderWithSnippets(options.distDir, options.emSnippets ?? []);
  const pyodide = await loadPyodide({
    indexURL: options.distDir + '/',
    lockFileURL,
    // A local directory: Pyodide reads package files with fs, so a missing wheel is an error, not a download.
    packageBaseUrl: (options.wheelsDir ?? join(options.distDir, 'no-wheels')) + '/',
    // Anything written to the C-level fds (not sys.stdout) goes to the log, never to the protocol stream.
    stdout: (line: string) => options.log(`[python stdout] ${line}`),
    stderr: (line: string) => options.log(`[python stderr] ${line}`),
    env: { HOME: '/home/pyodide', MPLBACKEND: 'Agg' },
    checkAPIVersion: true,
    ...(createPyodideModule ? { createPyodideModule } : {}),
    ...(options.snapshot ? { _loadSnapshot: options.snapshot } : {}),
    ...(options.makeSnapshot ? { _makeSnapshot: true } : {}),
  });
  // Before any package is loaded (the snapshot's preload set below): archives are unpacked in place, with no
  // temporary file in /tmp (package-unpack.ts says why). On every boot: a snapshot restored holds what its maker's was.
  installPackageUnpack((code) => pyodide.runPython(code));
  const lock = (await import(lockFileURL, { with: { type: 'json' } })).default as {
    packages: Record<string, { name: string; file_name: string; imports: string[]; version: string; depends: string[] }>;
  };
  // What a failed library load leaves in the linker is undone (dynlib-rollback.ts). The harness's import finder asks
  // for that before each import (workers/python/failed_loads.py): a function on the API object, `pyodide_js` in Python.
  const rollback = installDynlibRollback((pyodide as unknown as { _module: Record<string, unknown> })._module);
  Object.defineProperty(pyodide, '_pyodide_mcp_forget_failed_loads', {
    value: () => rollback.forgetFailedLoads(),
    writable: false,
    configurable: false,
    enumerable: false,
  });
  // pyodide.loadedPackages is keyed by the lock entries' `name` (e.g. "Bottleneck"), the lock by the normalized name.
  const keyOfName = new Map(Object.entries(lock.packages).map(([key, pkg]) => [pkg.name, key]));
  const isLoaded = (key: string) => (lock.packages[key]?.name ?? key) in pyodide.loadedPackages;

  // Lock entries whose wheel the host verified against the lock (src/python/wheel-check.ts): the only packages this
  // runtime loads (Pyodide itself does not check a local file's hash in Node). Fixed for the server's life, and
  // consulted on every cell that imports.
  const present = new Set(options.wheelsDir ? (options.wheelFiles ?? safeReaddir(options.wheelsDir)) : []);
  const available = Object.entries(lock.packages)
    .filter(([, pkg]) => present.has(pkg.file_name))
    .map(([name]) => name)
    .sort();
  const availablePackages = () => [...available];
  const packagesForImports = (importNames: string[]) =>
    Object.entries(lock.packages)
      .filter(([name, pkg]) => present.has(pkg.file_name) && !isLoaded(name) && pkg.imports.some((imp) => importNames.includes(imp)))
      .map(([name]) => name);
  const loadPackages = async (names: string[]): Promise<PackageLoad> => {
    if (names.length === 0) return { loaded: [], failed: [] };
    // Pyodide's loader does not throw for a package that fails: it reports it on its error stream, "The following
    // error occurred while loading X:" then the reason, and leaves it out of loadedPackages.
    const reasons = new Map<string, string>();
    let failing: string | null = null;
    const onError = (message: string) => {
      options.log(message);
      const header = FAILURE_HEADER.exec(message);
      if (header) failing = header[1]!;
      else if (failing !== null) {
        reasons.set(failing, boundedReason(String(message)));
        failing = null;
      }
    };
    rollback.forgetFailedLoads();
    try {
      // Progress messages (one per package) are not logged; failures are.
      await pyodide.loadPackage(names, { messageCallback: () => {}, errorCallback: onError, checkIntegrity: true });
    } finally {
      rollback.forgetFailedLoads();
    }
    const failed: PackageFailure[] = [...reasons].map(([name, reason]) => ({ name: keyOfName.get(name) ?? name, reason }));
    for (const name of names) {
      if (!isLoaded(name) && !failed.some((failure) => failure.name === name)) {
        failed.push({ name, reason: 'not loaded, and the package loader gave no reason (the server log may have more)' });
      }
    }
    return { loaded: names.filter(isLoaded), failed };
  };

  const wheelsDir = options.wheelsDir;
  const installFootprint = (names: string[]): Footprint => {
    if (!wheelsDir) return NO_FOOTPRINT;
    // What loadPackage unpacks: these packages and their dependencies not loaded yet. Index loops and a record
    // without prototype: user code can replace Array and Set methods, and this bounds what the quota lifts.
    const queue: string[] = [];
    for (let i = 0; i < names.length; i++) queue[i] = names[i]!;
    const seen: Record<string, true> = Object.create(null);
    let bytes = 0;
    let files = 0;
    for (let i = 0; i < queue.length; i++) {
      const name = queue[i]!;
      if (seen[name] || !hasOwn(lock.packages, name) || hasOwn(pyodide.loadedPackages, lock.packages[name]!.name ?? name)) continue;
      seen[name] = true;
      const pkg = lock.packages[name]!;
      const archive = fileFootprint(join(wheelsDir, pkg.file_name));
      bytes += archive.bytes + PACKAGE_METADATA.bytes;
      files += archive.files + PACKAGE_METADATA.files;
      for (let j = 0; j < pkg.depends.length; j++) queue[queue.length] = pkg.depends[j]!;
    }
    return { bytes, files };
  };

  const snapshotImports = options.snapshotImports ?? [];
  if (snapshotImports.length > 0 && (options.makeSnapshot || options.snapshot)) {
    // Restored: the modules are in sys.modules already, their files are not (loadedPackages is JavaScript state, so
    // it starts empty and loadPackage unpacks the same verified wheels again). Making: load them as usual.
    await loadPackages(packagesForImports(snapshotImports));
    if (options.makeSnapshot) {
      // `and None`: the module itself would come back as a PyProxy, which a snapshot cannot hold.
      for (const name of snapshotImports) pyodide.runPython(`__import__(${JSON.stringify(name)}) and None`);
    }
  }

  return {
    kind: 'modern',
    FS: pyodide.FS as unknown as EmscriptenFS,
    // __import__, not `import sys`: nothing may be bound in __main__, which becomes the user's namespace.
    pythonVersion: pyodide.runPython("__import__('sys').version.split()[0]") as string,
    pyodideVersion: pyodide.version,
    runPython: (code) => pyodide.runPython(code),
    bindFunction(expression) {
      const fn = pyodide.runPython(expression) as (arg: string) => string;
      if (typeof fn !== 'function') throw new Error('modern runtime: expression did not evaluate to a callable');
      return fn;
    },
    loadPackages,
    forgetFailedLoads: () => rollback.forgetFailedLoads(),
    installFootprint,
    packagesForImports,
    loadedPackages() {
      return Object.fromEntries(
        Object.keys(pyodide.loadedPackages).map((name) => {
          const key = keyOfName.get(name) ?? name;
          return [key, lock.packages[key]?.version ?? ''];
        }),
      );
    },
    availablePackages,
    packageVersions(importNames) {
      const entries = Object.values(lock.packages);
      return Object.fromEntries(importNames.map((name) => [name, entries.find((pkg) => pkg.imports.includes(name))?.version ?? '']));
    },
    makeSnapshot: options.makeSnapshot ? () => makeSnapshot(pyodide) : undefined,
    setInterruptBuffer(buffer) {
      // Typed as a TypedArray; what its helpers do with it is index slot 0 (interrupt-signal.ts).
      pyodide.setInterruptBuffer(buffer as unknown as Int32Array);
      return true;
    },
  };
}

/**
 * Pyodide refuses to snapshot once packages are loaded: it compares the JavaScript objects Python refers to with those
 * a fresh boot has, and `loadedPackages` is one of them (measured: "Unexpected hiwire entry at index 6", an object
 * expected to be `{}`). A restored runtime does start with it empty, and its packages are loaded again during boot
 * (their files unpacked from the same wheels, which refills it), so the snapshot is taken with it emptied for the
 * moment and refilled after.
 */
function makeSnapshot(pyodide: { loadedPackages: Record<string, unknown>; makeMemorySnapshot(): Uint8Array }): Uint8Array {
  const { loadedPackages } = pyodide;
  const loaded = { ...loadedPackages };
  for (const name of Object.keys(loaded)) delete loadedPackages[name];
  try {
    return pyodide.makeMemorySnapshot();
  } finally {
    Object.assign(loadedPackages, loaded);
  }
}

function hasOwn(record: object, key: string): boolean {
  return apply(hasOwnProperty, record, [key]);
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
