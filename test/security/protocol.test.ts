/**
 * The host trusts nothing a worker sends (src/permissions.ts), and the worker's own sender bounds what it sends
 * (workers/runtime/lockdown.ts createGuardedPost). Pure functions and a MessageChannel: no server needed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MessageChannel } from 'node:worker_threads';
import { checkReply, MAX_LOG_CHARS, parseWorkerMessage, workerReadPaths, workerSandboxExecArgv } from '../../src/sandbox/worker-sandbox.js';
import { createGuardedPost } from '../../workers/sandbox/lockdown.js';

const limits = { stdout: 100, stderr: 100, result: 100, traceback: 100 };
const outcome = { stdout: '', stderr: '', result: '2', error: null, execution_count: 1, truncated: null, loaded_packages: [], display: [], changes: { written: [], deleted: [] } };

describe('host-side validation of worker messages', () => {
  it('drops anything that is not a well-formed protocol message', () => {
    for (const raw of [null, 'ready', 42, [], {}, { type: 'nope' }, { type: 'ready' }, { type: 'ready', info: { kind: 'evil' } },
      { type: 'log', message: 5 }, { type: 'reply', id: -1, ok: true }, { type: 'reply', id: 1.5, ok: true }, { type: 'reply', id: 1 },
      { type: 'reply', id: 1, ok: false, error: 'boom' }, { type: 'boot_failed', error: { code: 1 } }]) {
      assert.equal(parseWorkerMessage(raw), null, JSON.stringify(raw));
    }
    assert.deepEqual(parseWorkerMessage({ type: 'reply', id: 3, ok: true, value: null }), { type: 'reply', id: 3, ok: true, value: null });
  });

  it('cuts oversized log lines', () => {
    const message = parseWorkerMessage({ type: 'log', message: 'z'.repeat(MAX_LOG_CHARS * 3) });
    assert.ok(message && message.type === 'log' && message.message.length < MAX_LOG_CHARS + 20);
  });

  it('checks a reply against the request it answers', () => {
    const execute = { type: 'execute', code: '1+1', limits } as const;
    assert.equal(checkReply(execute, outcome), null);
    assert.match(checkReply(execute, { ...outcome, stdout: 'x'.repeat(10_000) })!, /over the limit/);
    assert.match(checkReply(execute, { ...outcome, stdout: 5 })!, /stdout/);
    assert.match(checkReply(execute, { ...outcome, changes: { written: [{ path: '../../etc/passwd', data: new Uint8Array(1), mtimeMs: 0 }], deleted: [] } })!, /written/);
    assert.match(checkReply(execute, { ...outcome, changes: { written: [], deleted: ['/abs'] } })!, /deleted/);
    assert.match(checkReply({ type: 'list_packages' }, { loaded: 5 })!, /package listing/);
    assert.match(checkReply({ type: 'load_packages', packages: [] }, { surprise: true })!, /unexpected/);
    assert.equal(checkReply({ type: 'delete_file', path: 'a' }, { written: [{ path: 'a/b.txt', data: new Uint8Array(2), mtimeMs: 1 }], deleted: ['c'] }), null);
  });

  it('gives workers read access to code and distribution only, never the working directory', () => {
    const paths = workerReadPaths({ distDir: '/opt/x/node_modules/pyodide', wheelsDir: null, harnessPath: '/opt/x/workers/harness.py' });
    assert.ok(!paths.includes(process.cwd()) && !paths.includes(process.cwd() + '/'));
    const argv = workerSandboxExecArgv({ distDir: '/opt/x/node_modules/pyodide', wheelsDir: '/w', harnessPath: '/h.py' });
    assert.ok(argv.includes('--experimental-permission') || argv.includes('--permission'));
    assert.ok(!argv.some((a) => a.startsWith('--allow-fs-write') || a === '--allow-child-process' || a === '--allow-addons'));
    assert.ok(argv.includes('--allow-fs-read=/w/'));
  });
});

describe("the worker's guarded sender", () => {
  const collect = async (send: (post: ReturnType<typeof createGuardedPost>) => void) => {
    const { port1, port2 } = new MessageChannel();
    const received: any[] = [];
    port2.on('message', (m) => received.push(m));
    send(createGuardedPost(port1, { maxLogChars: 50, logsPerSecond: 10, logBurst: 20, maxMessageChars: 1_000 }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    port1.close();
    return received;
  };

  it('rate-limits and cuts log messages', async () => {
    const got = await collect((post) => {
      for (let i = 0; i < 1000; i++) post({ type: 'log', message: `line ${i} ${'x'.repeat(100)}` } as any);
    });
    assert.ok(got.length <= 21, `${got.length} log messages passed`);
    assert.ok(got.every((m) => m.message.length < 100));
  });

  it('passes file bytes through without walking them', async () => {
    const data = new Uint8Array(20 * 1024 * 1024);
    const started = performance.now();
    const got = await collect((post) => post({ type: 'reply', id: 8, ok: true, value: { written: [{ path: 'big.bin', data, mtimeMs: 0 }], deleted: [] } } as any));
    assert.equal(got[0].value.written[0].data.length, data.length);
    assert.ok(performance.now() - started < 2_000);
  });

  it('replaces an oversized reply by an error reply', async () => {
    const got = await collect((post) => post({ type: 'reply', id: 7, ok: true, value: { stdout: 'y'.repeat(5_000) } } as any));
    assert.deepEqual(got, [{ id: 7, type: 'reply', ok: false, error: { code: 'WORKER_ERROR', message: 'The reply exceeded 1000 characters and was not sent.' } }]);
  });
});
