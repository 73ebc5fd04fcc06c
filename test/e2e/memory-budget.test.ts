/**
 * The memory budget (--max-total-memory-mb) and a session's share of the server log, over the real server: a
 * configuration that cannot fit is refused at start with the arithmetic; a default --max-sessions is lowered to fit
 * and the server says so once; a new session past the measured budget is refused with MEMORY_BUDGET while the
 * existing one is unharmed; a session flooding its fd 2 gets a bounded share of the server's stderr.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { CLI, eventually, startServer, textOf, type Harness } from '../helpers.js';

/** The server's own heap limit is part of the budget: a small one (about 144 MB) lets a small budget fit. */
const SMALL_HEAP = { NODE_OPTIONS: '--max-old-space-size=96' };

describe('memory budget at start', () => {
  const start = (flags: string[]) =>
    spawnSync(process.execPath, [CLI, ...flags], {
      env: { PATH: process.env.PATH ?? '', PYODIDE_MCP_PRELOAD: 'none', ...SMALL_HEAP },
      input: '',
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('refuses sessions that cannot fit in the machine, with the arithmetic and what to lower', () => {
    const run = start(['--max-sessions', '64', '--max-session-memory-mb', '4096']);
    assert.equal(run.status, 2, run.stderr);
    assert.match(
      run.stderr,
      /The sessions do not fit in the memory budget: 64 sessions \(--max-sessions\) × 4096 MB \(--max-session-memory-mb\) \+ \d+ MB \(the server's heap limit[^)]*\) = \d+ MB, more than \d+ MB \(--max-total-memory-mb defaults to 90 % of \d+ MB, (this machine's memory|the cgroup's memory limit)\)/,
    );
    assert.match(
      run.stderr,
      /lower --max-sessions to at most \d+, or lower --max-session-memory-mb to at most \d+, or raise --max-total-memory-mb/,
    );
    assert.equal(run.stdout, '', 'nothing on the protocol stream');
  });

  it('refuses a given budget too small for the sessions asked for', () => {
    const run = start(['--max-total-memory-mb', '2000', '--max-sessions', '2']);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /2 sessions .* × 2048 MB .* = \d+ MB, more than 2000 MB \(--max-total-memory-mb 2000\)/);
    assert.match(run.stderr, /lower --max-session-memory-mb to at most \d+, or raise --max-total-memory-mb to at least \d+\./);
  });
});

describe('memory budget measured at each new session', () => {
  let h: Harness;
  before(async () => {
    // Thread isolation: the sessions' memory is the server's own RSS, and what a session allocates counts at once.
    h = await startServer(
      ['--isolation', 'thread', '--max-session-memory-mb', '128', '--warm-sessions', '0', '--max-total-memory-mb', '600'],
      SMALL_HEAP,
    );
  });
  after(() => h.close());

  it('lowers a default --max-sessions to fit, and logs the arithmetic once', async () => {
    const info = await h.ok('server_info');
    // (600 - heap limit of about 144) / 128
    assert.ok(info.limits.max_sessions >= 2 && info.limits.max_sessions <= 3, `max_sessions ${info.limits.max_sessions}`);
    assert.equal(info.limits.max_total_memory_mb, 600);
    const notes = h
      .stderr()
      .match(/memory budget: lowered --max-sessions from 16 to \d \(defaults\)[^\n]*≤ 600 MB \(--max-total-memory-mb 600\)/g);
    assert.equal(notes?.length, 1, h.stderr());
  });

  it('refuses a new session past the measured budget with MEMORY_BUDGET; the existing session is unharmed', async () => {
    const first = await h.ok('create_session');
    const big = await h.ok('execute_code', { session_id: first.session_id, code: "big = b'x' * (400 * 2**20)\nlen(big)" });
    assert.equal(big.result, String(400 * 2 ** 20));
    const refused = await h.call('create_session');
    assert.equal(refused.isError, true);
    assert.match(
      textOf(refused),
      /^MEMORY_BUDGET: No memory for another session: \d+ MB used by the server \(its sessions included: --isolation thread\) \+ up to 128 MB a new session may grow to \(--max-session-memory-mb\) would exceed the server's memory budget of 600 MB \(--max-total-memory-mb\)\. Close a session you no longer need with close_session/,
    );
    // execute_code without a session id creates one: refused the same way.
    assert.match(textOf(await h.call('execute_code', { code: '1' })), /^MEMORY_BUDGET: /);
    const still = await h.ok('execute_code', { session_id: first.session_id, code: 'len(big) + 1' });
    assert.equal(still.result, String(400 * 2 ** 20 + 1));
    // What the error says to do works: once the session is closed its memory is returned and a new one fits.
    await h.ok('close_session', { session_id: first.session_id });
    await eventually(async () => !(await h.call('create_session')).isError, 20_000, 'a session fits again');
  });
});

describe("a session's share of the server's stderr", () => {
  let h: Harness;
  before(async () => {
    h = await startServer();
  });
  after(() => h.close());

  it('bounds what Python writes to fd 2 (256 KB a minute), and a bystander session is unharmed', async () => {
    const bystander = await h.ok('create_session');
    const flooder = await h.ok('create_session');
    const before = h.stderr().length;
    const flood = await h.ok('execute_code', {
      session_id: flooder.session_id,
      code: "import os\nwhile True:\n    os.write(2, b'x' * 1000 + b'\\n')",
      timeout_seconds: 3,
    });
    assert.equal(flood.error.type, 'TimeoutError');
    assert.equal((await h.ok('execute_code', { session_id: bystander.session_id, code: '6 * 7' })).result, '42');
    const logged = h.stderr().slice(before);
    const floodLines = logged.split('\n').filter((line) => line.includes('x'.repeat(1000)));
    assert.ok(floodLines.length > 50, `some of it is logged: ${floodLines.length} lines`);
    // 256 KB of the session's text, plus the server's prefix on each line (about 40 bytes).
    assert.ok(Buffer.byteLength(logged) < 256 * 1024 + floodLines.length * 60 + 8192, `${Buffer.byteLength(logged)} bytes reached stderr`);
    // The flooder itself goes on working.
    assert.equal((await h.ok('execute_code', { session_id: flooder.session_id, code: '1 + 1' })).result, '2');
  });
});
