/**
 * The naive baseline for `npm run bench`: what a stateless server does per session. Boots Pyodide
 * from scratch in a fresh worker, loads and imports the packages, runs one cell, and reports.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { chooseDistribution } from '../src/python/distribution.js';
import { PACKAGE_WHEELS_DIR } from '../src/paths.js';
import { bootRuntime } from '../workers/runtime/index.js';
const { preload } = workerData;
try {
    const distribution = chooseDistribution('auto', preload, [{ path: PACKAGE_WHEELS_DIR, private: false }]);
    const runtime = await bootRuntime(distribution.kind, { distDir: distribution.distDir, wheelsDir: distribution.wheelsDir, log: () => { } });
    await runtime.loadPackages(preload);
    runtime.runPython(preload.map((name) => `import ${name}`).join('\n') + '\n1 + 1');
    parentPort.postMessage({ ok: true });
}
catch (error) {
    parentPort.postMessage({ ok: false, error: String(error) });
}
