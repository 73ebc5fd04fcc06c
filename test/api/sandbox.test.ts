/**
 * The library API in-process: createSandbox options (the flag table), session handles over real session processes
 * and real Pyodide, timeouts and aborts that keep the session, figures and progress callbacks, typed errors.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createSandbox, PyodideMcpError, type Sandbox, type SandboxOptions } from '../../src/index.js';
import { configFromOptions } from '../../src/api/options.js';

/** Rejects (or throws) with a PyodideMcpError of this code. */
async function failsWith(code: string, action: () => unknown): Promise<void> {
  await assert.rejects(
    async () => action(),
    (error) => error instanceof PyodideMcpError && error.code === code,
  );
}

describe('createSandbox options', () => {
  it('takes every flag of the table as a camelCase option, with the same defaults', () => {
    // Typed Required<>: an option the type names but the runtime does not know (or the reverse) fails here.
    const every: Required<Omit<SandboxOptions, 'log'>> = {
      instanceId: 'lib-1',
      stateLeaseSeconds: 12,
      sessionTtlSeconds: 60,
      timeoutSeconds: 5,
      maxTimeoutSeconds: 10,
      maxSessions: 3,
      maxCodeChars: 1000,
      maxOutputChars: 100,
      maxResultChars: 100,
      maxTracebackChars: 100,
      interruptGraceMs: 500,
      maxQueuedCalls: 8,
      maxQueuedBytes: 1_000_000,
      opTimeoutSeconds: 20,
      maxHeapMb: 256,
      warmSessions: 0,
      runtime: 'modern',
      preload: [],
      maxFileBytes: 1024,
      maxSessionBytes: 4096,
      maxFiles: 10,
      maxImageBytes: 1024,
      maxReadBytes: 2048,
      figureFormats: ['png', 'svg'],
      allowDirs: ['/data'],
      allowAllDirs: false,
      isolation: 'thread',
      maxReplyBytes: 100_000,
      maxSessionMemoryMb: 512,
      maxTotalMemoryMb: 8192,
      allowNetwork: false,
      indexUrl: 'http://127.0.0.1:1/pypi',
      maxMemoryMb: 256,
      noStructuredContent: true,
      resourceLinks: true,
      snapshotDir: 'none',
      wheelsDir: '/opt/wheels',
      lockFile: '/opt/mirror/pyodide-lock.json',
      maxHistoryCells: 10,
      maxHistoryBytes: 65_536,
      stateDir: 'state',
      tools: ['execute_code', 'list_files'],
      profile: 'compact',
    };
    const config = configFromOptions(every, '/srv');
    assert.equal(config.defaultTimeoutMs, 5000);
    assert.equal(config.sessionTtlMs, 60_000);
    assert.deepEqual(config.preload, []);
    assert.deepEqual(config.figureFormats, ['png', 'svg']);
    assert.equal(config.structuredContent, false);
    assert.equal(config.snapshotDir, null);
    assert.equal(config.stateDir, '/srv/state');
    assert.equal(config.memoryBudget.totalMb, 8192);
    assert.deepEqual(config.tools, ['execute_code', 'list_files']);
    assert.deepEqual(configFromOptions({}).http, configFromOptions({}).http);
    // A machine where the default sessions fit (elsewhere --max-sessions's default is lowered: memory-budget tests).
    const defaults = configFromOptions({}, '/srv', {}, { memoryMb: 65_536, source: "this machine's memory", heapLimitMb: 4144 });
    assert.equal(defaults.defaultTimeoutMs, 30_000);
    assert.equal(defaults.maxSessions, 16);
    assert.equal(defaults.isolation, 'process');
  });

  it('refuses a bad or unknown option with a TypeError naming it', () => {
    const refused = (options: unknown, pattern: RegExp) =>
      assert.throws(
        () => configFromOptions(options as SandboxOptions),
        (error) => error instanceof TypeError && pattern.test(error.message),
      );
    refused({ timeoutSeconds: -1 }, /^Invalid value -1 for option timeoutSeconds: /);
    refused({ timeoutSeconds: '5' }, /option timeoutSeconds: expected a number/);
    refused({ preload: 'numpy' }, /option preload: expected an array of strings/);
    refused({ preload: ['numpy,scipy'] }, /option preload/);
    refused({ isolation: 'vm' }, /option isolation/);
    refused({ allowNetwork: 'yes' }, /option allowNetwork: expected a boolean/);
    refused({ timeout: 5 }, /^Unknown option "timeout"\. Options: sessionTtlSeconds, timeoutSeconds/);
    refused({ http: ':0' }, /^Unknown option "http"/);
    refused({ timeoutSeconds: 60, maxTimeoutSeconds: 30 }, /timeoutSeconds \(60\) is larger than maxTimeoutSeconds \(30\)/);
  });
});

describe('Sandbox and sessions (modern runtime, process isolation)', () => {
  let sandbox: Sandbox;
  const logs: string[] = [];

  before(async () => {
    sandbox = await createSandbox({ preload: [], warmSessions: 0, timeoutSeconds: 20, log: (line) => logs.push(line) });
  });
  after(() => sandbox.close());

  it('runs code in a session that keeps its variables; the reply is execute_code’s', async () => {
    const session = await sandbox.createSession();
    assert.match(session.id, /^[A-Za-z0-9_-]{32}$/);
    assert.equal(session.runtime.distribution, 'modern');
    assert.ok(session.expiresAt.getTime() > Date.now());
    const r = await session.execute('x = 41\nprint("hi")\nx + 1');
    assert.equal(r.result, '42');
    assert.equal(r.stdout, 'hi\n');
    assert.equal(r.success, true);
    assert.equal(r.session_id, session.id);
    assert.equal((await session.execute('x')).result, '41');
    const failed = await session.execute('1/0');
    assert.equal(failed.success, false);
    assert.equal(failed.error?.type, 'ZeroDivisionError');
    await session.close();
  });

  it('writes, reads, lists and deletes files; code sees them', async () => {
    const session = await sandbox.createSession();
    const ref = await session.writeFile('data/in.csv', 'a,b\n1,2\n');
    assert.equal(ref.path, 'data/in.csv');
    assert.equal(ref.size, 8);
    assert.equal(await session.readFile('data/in.csv', 'utf8'), 'a,b\n1,2\n');
    assert.deepEqual([...(await session.readFile('data/in.csv')).subarray(0, 3)], [97, 44, 98]);
    assert.equal((await session.execute('open("data/in.csv").read().count(",")')).result, '2');
    await session.execute('open("out.txt", "w").write("done")');
    assert.deepEqual((await session.listFiles()).map((e) => e.path).sort(), ['data', 'data/in.csv', 'out.txt']);
    await failsWith('FILE_EXISTS', () => session.writeFile('out.txt', 'again'));
    await session.deleteFile('out.txt');
    await failsWith('FILE_NOT_FOUND', () => session.readFile('out.txt'));
    await failsWith('PATH_DENIED', () => session.readFile('../etc/passwd'));
    await session.close();
  });

  it('interrupts a cell at its timeout or on abort; the session keeps its variables', async () => {
    const session = await sandbox.createSession();
    await session.execute('kept = "yes"');
    const timedOut = await session.execute('while True: pass', { timeoutSeconds: 0.5 });
    assert.equal(timedOut.error?.type, 'TimeoutError');
    const controller = new AbortController();
    const ticks: number[] = [];
    const aborted = await session.execute('while True: pass', {
      signal: controller.signal,
      onProgress: ({ elapsedSeconds, timeoutSeconds }) => {
        ticks.push(elapsedSeconds);
        assert.equal(timeoutSeconds, 20);
        controller.abort();
      },
    });
    assert.equal(aborted.error?.type, 'CancelledError');
    assert.ok(ticks.length >= 1);
    assert.equal((await session.execute('kept')).result, "'yes'");
    await failsWith('INVALID_INPUT', () => session.execute('1', { timeoutSeconds: 10_000 }));
    await session.close();
  });

  it('hands every figure to onFigure with its bytes', async () => {
    const session = await sandbox.createSession();
    const figures: { path: string; mimeType: string; data: Uint8Array }[] = [];
    const png = '\\x89PNG\\r\\n\\x1a\\nfake';
    const r = await session.execute(`class P:\n    def _repr_png_(self):\n        return b"${png}"\nP()`, {
      onFigure: (f) => figures.push(f),
    });
    assert.equal(r.display.length, 1);
    assert.equal(figures.length, 1);
    assert.equal(figures[0]!.mimeType, 'image/png');
    assert.equal(figures[0]!.path, r.display[0]!.path);
    assert.deepEqual([...figures[0]!.data.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    await session.close();
  });

  it('finds sessions by id, lists them, and says SESSION_NOT_FOUND for unknown ids and closed handles', async () => {
    const session = await sandbox.createSession();
    await session.execute('y = 7');
    const again = sandbox.getSession(session.id);
    assert.equal((await again.execute('y')).result, '7');
    assert.ok(sandbox.listSessions().some((s) => s.session_id === session.id));
    await failsWith('SESSION_NOT_FOUND', () => sandbox.getSession('no-such-session'));
    await session.close();
    await session.close(); // idempotent
    await failsWith('SESSION_NOT_FOUND', () => session.execute('y'));
    await failsWith('SESSION_NOT_FOUND', () => again.execute('y'));
    await failsWith('SESSION_NOT_FOUND', () => again.listFiles());
    assert.ok(!sandbox.listSessions().some((s) => s.session_id === session.id));
  });

  it('after close(), every handle says SESSION_NOT_FOUND and no session can start', async () => {
    const other = await createSandbox({ preload: [], warmSessions: 0, isolation: 'thread', log: () => {} });
    const session = await other.createSession();
    await other.close();
    await failsWith('SESSION_NOT_FOUND', () => session.execute('1'));
    await failsWith('SERVER_CLOSING', () => other.createSession());
  });
});
