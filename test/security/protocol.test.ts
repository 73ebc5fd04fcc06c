/**
 * The sandbox arguments a session worker gets (src/supervisor/worker-sandbox.ts), and the worker's own sender, which
 * bounds what it sends (workers/thread/realm/guarded-post.ts createGuardedPost). The contract checks are in
 * test/wire/contract.test.ts. Pure functions and a MessageChannel: no server needed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MessageChannel } from 'node:worker_threads';
import { workerReadPaths, workerSandboxExecArgv } from '../../src/supervisor/worker-sandbox.js';
import { createGuardedPost } from '../../workers/thread/realm/guarded-post.js';

describe('sandbox arguments of a session worker', () => {
  it('gives workers read access to code and distribution only, never the working directory', () => {
    const paths = workerReadPaths({
      distDir: '/opt/x/node_modules/pyodide',
      wheelsDir: null,
      wheelFiles: [],
      harnessPath: '/opt/x/workers/harness.py',
    });
    assert.ok(!paths.includes(process.cwd()) && !paths.includes(process.cwd() + '/'));
    const argv = workerSandboxExecArgv({
      distDir: '/opt/x/node_modules/pyodide',
      wheelsDir: '/w',
      wheelFiles: ['a-1.0-py3-none-any.whl'],
      harnessPath: '/h.py',
    });
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
    const got = await collect((post) =>
      post({ type: 'reply', id: 8, ok: true, value: { written: [{ path: 'big.bin', data, mtimeMs: 0 }], deleted: [] } } as any),
    );
    assert.equal(got[0].value.written[0].data.length, data.length);
    assert.ok(performance.now() - started < 2_000);
  });

  it('replaces an oversized reply by an error reply', async () => {
    const got = await collect((post) => post({ type: 'reply', id: 7, ok: true, value: { stdout: 'y'.repeat(5_000) } } as any));
    assert.deepEqual(got, [
      { id: 7, type: 'reply', ok: false, error: { code: 'WORKER_ERROR', message: 'The reply exceeded 1000 characters and was not sent.' } },
    ]);
  });
});
