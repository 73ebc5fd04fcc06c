/**
 * The key property of the sandbox, measured directly: after lockdown, nothing dangerous is reachable from the
 * worker realm's global object or from the Pyodide API (what `import js` and `import pyodide_js` give Python).
 * The walk runs inside a worker started like a session worker (same execArgv, same V8 flags).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { legacyDistDir, modernDistDir } from '../../src/python/distribution.js';
import { hardenWorkerIsolates, workerSandboxExecArgv } from '../../src/sandbox/worker-sandbox.js';
function audit(kind, control = false) {
    hardenWorkerIsolates();
    const distDir = kind === 'modern' ? modernDistDir() : legacyDistDir();
    const worker = new Worker(new URL('./realm-audit.worker.js', import.meta.url), {
        workerData: { kind, distDir, control },
        env: {},
        argv: [],
        execArgv: workerSandboxExecArgv({
            distDir,
            wheelsDir: null,
            wheelFiles: [],
            harnessPath: new URL('../../../workers/harness.py', import.meta.url).pathname,
        }),
        stdout: true,
        stderr: true,
        resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    return new Promise((resolve, reject) => {
        worker.once('message', (message) => {
            void worker.terminate();
            resolve(message);
        });
        worker.once('error', reject);
    });
}
for (const kind of ['modern', 'legacy']) {
    describe(`realm audit after lockdown (${kind} runtime)`, () => {
        it('reaches no Node module, no real process, no port, no fetch; eval and import() fail', async () => {
            const result = await audit(kind);
            assert.equal(result.error, undefined, result.error);
            assert.ok(result.visited > 1000, `walked ${result.visited} objects`);
            assert.deepEqual(result.findings, []);
            assert.equal(result.evalWorks, false, 'new Function() must throw EvalError');
            assert.equal(result.importWorks, false, 'import() must be refused');
            assert.equal(result.hasProcessBinding, 'undefined');
            assert.equal(result.report.permissionModel, 'active');
        });
    });
}
describe('realm audit control (no lockdown)', () => {
    it('the same walk finds the real process, fetch and MessagePort when the realm is not locked down', async () => {
        const result = await audit('modern', true);
        assert.equal(result.error, undefined, result.error);
        const found = result.findings.join('\n');
        assert.match(found, /globalThis\.process is the real process object/);
        assert.match(found, /globalThis\.MessagePort\.prototype is MessagePort\.prototype/);
        assert.match(found, /globalThis\.fetch is fetch/);
        // process.stdin/stdout (whose internal port can crash the host) are reachable before lockdown, also via
        // console._stdout and Pyodide's default stdin.
        assert.match(found, /is process\.stdin/);
        assert.match(found, /console\._stdout is process\.stdout/);
    });
});
