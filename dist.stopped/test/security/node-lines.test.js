/**
 * What differs between the supported Node lines (20, 22, 24) and matters to the sandbox, checked on the Node that
 * runs this file (.ci/run runs the security tests on each line):
 *  - the permission flags a session worker gets, and what they refuse from inside it;
 *  - Node 22+ loads undici when the lockdown reads its globals' descriptors, and undici leaves a network-capable
 *    Agent in a non-configurable symbol-keyed global: it must not be reachable from Python;
 *  - the web globals that are kept still work after lockdown (they are resolved before any global is deleted).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import nodeModule from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { modernDistDir } from '../../src/python/distribution.js';
import { workerSandboxExecArgv } from '../../src/sandbox/worker-sandbox.js';
import { startProbeServer, startLoopback } from './probe.js';
const major = Number(process.versions.node.split('.')[0]);
/** Node 22.15+ runs the import firewall in-thread (module.registerHooks), so session workers get no --allow-worker. */
const inThreadHooks = typeof nodeModule.registerHooks === 'function';
/**
 * Runs node-lines.worker.js with `execArgv` and returns its report and its stderr. Seen in CI on Node 22 and 24 (and
 * once in 12 runs of this file alone on Node 24): the probe worker sometimes neither reports nor exits, or exits
 * without reporting. That is Node starting a worker under the permission model, not the sandbox, so a probe that has
 * not reported within PROBE_MS is terminated and a new one started, up to three; each failure is logged.
 */
const PROBE_MS = 20_000;
async function probeWorker(workerData, execArgv) {
    const failures = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
        const worker = new Worker(new URL('./node-lines.worker.js', import.meta.url), {
            workerData,
            env: {},
            argv: [],
            execArgv,
            stderr: true,
        });
        let stderr = '';
        worker.stderr.on('data', (chunk) => (stderr += chunk.toString()));
        const exited = new Promise((resolve) => worker.once('exit', resolve));
        let timer;
        const outcome = await Promise.race([
            new Promise((resolve, reject) => {
                worker.once('message', (report) => resolve({ report }));
                worker.once('error', reject);
            }),
            exited.then((code) => `exited (code ${code}) before reporting`),
            new Promise((resolve) => (timer = setTimeout(() => resolve(`did not report within ${PROBE_MS} ms`), PROBE_MS))),
        ]).finally(() => clearTimeout(timer));
        if (typeof outcome !== 'string') {
            // Its stderr is complete once it has exited (the permission warnings would come at start-up).
            await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
            await worker.terminate();
            return { report: outcome.report, stderr };
        }
        await worker.terminate();
        failures.push(`attempt ${attempt}: the probe worker ${outcome}; stderr: ${JSON.stringify(stderr)}`);
        console.error(`node-lines: ${failures.at(-1)}`);
    }
    throw new Error(failures.join('\n'));
}
describe(`Node ${process.version}: the permission model of a session worker`, () => {
    it('uses the flag of this line and refuses writes, processes, bindings, files outside the allowed paths', async () => {
        const distDir = modernDistDir();
        const harnessPath = fileURLToPath(new URL('../../../workers/harness.py', import.meta.url));
        const execArgv = workerSandboxExecArgv({ distDir, wheelsDir: null, wheelFiles: [], harnessPath });
        assert.ok(execArgv.includes(major >= 22 ? '--permission' : '--experimental-permission'), execArgv.join(' '));
        assert.equal(execArgv.includes('--allow-worker'), !inThreadHooks);
        const secretDir = mkdtempSync(join(tmpdir(), 'pyodide-mcp-node-lines-'));
        const secretFile = join(secretDir, 'secret.txt');
        writeFileSync(secretFile, 'secret');
        try {
            const { report, stderr } = await probeWorker({ allowedFile: harnessPath, secretFile }, execArgv);
            assert.equal(report.active, true);
            assert.deepEqual(report.has, { 'fs.write': false, child: false, worker: !inThreadHooks, addon: false });
            assert.equal(report.readAllowed, 'ok');
            assert.equal(report.readSecret, 'ERR_ACCESS_DENIED');
            assert.equal(report.binding, 'ERR_ACCESS_DENIED');
            assert.equal(report.newWorker, inThreadHooks ? 'ERR_ACCESS_DENIED' : 'ok');
            assert.equal(stderr, '', 'the permission warnings are silenced');
        }
        finally {
            rmSync(secretDir, { recursive: true, force: true });
        }
    });
});
describe(`Node ${process.version}: globals after lockdown (modern runtime)`, () => {
    let p;
    let s;
    let loopback;
    before(async () => {
        loopback = await startLoopback();
        p = await startProbeServer();
        s = await p.newSession();
    });
    after(async () => {
        await p.close();
        await loopback.close();
    });
    it("no symbol-keyed global holds an object, and undici's global dispatcher cannot open a connection", async () => {
        const code = [
            'import js',
            'from pyodide.ffi import JsProxy, create_proxy, to_js',
            "handler = to_js({n: create_proxy(lambda *a: True) for n in ('onConnect', 'onError', 'onHeaders', 'onData', 'onComplete')}, dict_converter=js.Object.fromEntries)",
            'held = [str(k) for k in js.Reflect.ownKeys(js.globalThis) if not isinstance(k, str) and isinstance(js.Reflect.get(js.globalThis, k), JsProxy)]',
            'tried = []',
            'for n in (1, 2):',
            "    agent = js.Reflect.get(js.globalThis, getattr(js.Symbol, 'for')(f'undici.globalDispatcher.{n}'))",
            '    if agent is not None:',
            `        tried.append(agent.dispatch(to_js({'origin': 'http://127.0.0.1:${loopback.port}', 'path': '/', 'method': 'GET'}, dict_converter=js.Object.fromEntries), handler))`,
            '(held, tried)',
        ].join('\n');
        const outcome = await p.run(s, code);
        assert.equal(outcome.error, null, outcome.error?.message);
        assert.equal(outcome.result, '([], [])');
        await new Promise((resolve) => setTimeout(resolve, 300));
        assert.equal(loopback.connections(), 0, 'no TCP connection reached the loopback server');
        await p.assertUnharmed();
    });
    it('the kept web globals still work', async () => {
        const code = [
            'import js',
            "streams = [js.TextDecoderStream.new(), js.CompressionStream.new('gzip'), js.TransformStream.new(), js.ReadableStream.new()]",
            "blob = js.Blob.new(js.Array.of('abc'))",
            "(blob.size, js.structuredClone(js.Array.of(1, 2)).length, js.TextDecoder.new().decode(js.TextEncoder.new().encode('é')), len(streams),",
            ' js.crypto.getRandomValues(js.Uint8Array.new(4)).length, js.performance.now() > 0, js.URL.new("http://x/a").pathname)',
        ].join('\n');
        const outcome = await p.run(s, code);
        assert.equal(outcome.error, null, outcome.error?.message);
        assert.equal(outcome.result, "(3, 2, 'é', 4, 4, True, '/a')");
    });
});
