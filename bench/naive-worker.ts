/**
 * The naive baseline for `npm run bench`: what a stateless server does per session. Boots Pyodide
 * from scratch in a fresh worker, loads and imports the packages, runs one cell, and reports.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { chooseDistribution, PACKAGE_ROOT } from '../src/distribution.js';
import { bootRuntime } from '../workers/runtime/index.js';
import { join } from 'node:path';

const { preload } = workerData as { preload: string[] };
try {
  const distribution = chooseDistribution('auto', preload, join(PACKAGE_ROOT, 'wheels'));
  const runtime = await bootRuntime(distribution.kind, { distDir: distribution.distDir, wheelsDir: distribution.wheelsDir, log: () => {} });
  await runtime.loadPackages(preload);
  runtime.runPython(preload.map((name) => `import ${name}`).join('\n') + '\n1 + 1');
  parentPort!.postMessage({ ok: true });
} catch (error) {
  parentPort!.postMessage({ ok: false, error: String(error) });
}
