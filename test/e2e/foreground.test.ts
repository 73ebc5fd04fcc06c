/**
 * Foreground first (src/sessions/background-gate.ts, the warm pool's hold): over the real server, while a call an
 * agent waits on runs, the session processes doing background work (a pool boot) are stopped, and they go on after
 * it; under a call that never ends the pool still refills (the gate's bound); and a server that exits while it holds
 * them leaves no stopped process behind. Linux: the states are read from /proc.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { CLI, eventually, startServer, type Harness } from '../helpers.js';

const linux = existsSync('/proc/self/task');

/** Child processes of `pid` (its session processes). */
function childrenOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
  );
}

/** A process's state letter (R, S, T for stopped, Z), or null once it is gone. */
function stateOf(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0]!;
  } catch {
    return null;
  }
}

/** True while one of the process's threads runs (the cell's worker thread; the main thread waits on its pipes). */
function threadRunning(pid: number): boolean {
  try {
    return readdirSync(`/proc/${pid}/task`).some((task) => stateOf(Number(task)) === 'R');
  } catch {
    return false;
  }
}

describe('background work waits for the calls an agent waits on (process isolation)', { skip: !linux && 'reads /proc' }, () => {
  let server: Harness;
  let pid: number;

  before(async () => {
    server = await startServer(['--warm-sessions', '1']);
    pid = server.transport.pid!;
  });
  after(() => server?.close());

  it('stops the pool boot while a cell runs, still refills the pool under a call that never ends, and resumes after', async () => {
    await eventually(async () => (await server.ok('server_info')).warm_sessions === 1, 120_000, 'the pool booted');
    // The pool's one session is the one create_session takes: its process runs the cell.
    const [cellPid, ...others] = childrenOf(pid);
    assert.equal(others.length, 0, 'one session process before the create');
    const { session_id } = await server.ok('create_session');
    const abort = new AbortController();
    // A cell that runs until cancelled: the gate is closed the whole time, except for its release windows.
    const running = server.client
      .callTool(
        { name: 'execute_code', arguments: { session_id, code: 'while True: pass', timeout_seconds: 300 } },
        {
          signal: abort.signal,
          timeout: 600_000,
        },
      )
      .catch((error: Error) => error);
    let settled = false;
    void running.then(() => (settled = true));
    // The cell runs (a session taken while it primed is stopped for a moment between the create and the cell).
    await eventually(async () => threadRunning(cellPid!), 60_000, 'the cell running');
    // The replacement boot starts in a release window and is stopped when the gate closes again.
    const stoppedBoot = () => childrenOf(pid).some((child) => child !== cellPid && stateOf(child) === 'T');
    await eventually(async () => stoppedBoot(), 120_000, 'a stopped pool boot');
    // The session running the cell is never stopped: sampled while the boot is.
    for (let i = 0; i < 20; i++) {
      assert.notEqual(stateOf(cellPid!), 'T', 'the session running the cell is not stopped');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Nothing starves: booted in the release windows, the pool is full again while the cell still runs.
    await eventually(async () => (await server.ok('server_info')).warm_sessions === 1, 240_000, 'the pool refilled during the call');
    assert.equal(settled, false, 'the cell was still running');
    abort.abort();
    await running;
    // The call is over: nothing stays stopped, and the session is intact.
    await eventually(async () => childrenOf(pid).every((child) => stateOf(child) !== 'T'), 60_000, 'no stopped session process');
    const reply = await server.ok('execute_code', { session_id, code: '1+1' });
    assert.equal(reply.result, '2');
  });

  it('an agent that stops calling gets its pool back', async () => {
    const { session_id } = await server.ok('create_session');
    await server.ok('execute_code', { session_id, code: 'sum(range(10**6))' });
    await eventually(async () => (await server.ok('server_info')).warm_sessions === 1, 120_000, 'the pool refilled');
    assert.ok(childrenOf(pid).every((child) => stateOf(child) !== 'T'));
  });
});

describe('a server that exits while it holds background work (process isolation)', { skip: !linux && 'reads /proc' }, () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'foreground-exit-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('leaves no stopped session process behind', async () => {
    const index = pathToFileURL(join(CLI, '..', 'index.js')).href;
    const script = join(dir, 'exit-while-holding.mjs');
    writeFileSync(
      script,
      `import { readdirSync, readFileSync } from 'node:fs';
import { createSandbox } from ${JSON.stringify(index)};
const children = () => readdirSync('/proc/' + process.pid + '/task').flatMap((t) =>
  readFileSync('/proc/' + process.pid + '/task/' + t + '/children', 'utf8').trim().split(/\\s+/).filter(Boolean).map(Number));
const state = (pid) => { try { return readFileSync('/proc/' + pid + '/stat', 'utf8').split(') ')[1][0]; } catch { return null; } };
const sandbox = await createSandbox({ preload: [], warmSessions: 1, maxTotalMemoryMb: 65536, log: () => {} });
const session = await sandbox.createSession();
void session.execute('while True: pass', { timeoutSeconds: 300 });
while (!children().some((pid) => state(pid) === 'T')) await new Promise((resolve) => setTimeout(resolve, 50));
process.stdout.write(JSON.stringify(children()) + '\\n');
process.exit(0);
`,
    );
    const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 0);
    const pids = JSON.parse(out) as number[];
    assert.ok(pids.length >= 2);
    // Resumed at the exit, each sees its closed pipe and exits (a zombie of a reaper that is slow counts as gone).
    await eventually(async () => pids.every((p) => [null, 'Z'].includes(stateOf(p))), 60_000, 'every session process ended');
  });
});
