/**
 * --isolation process: a V8 fatal error provoked from Python through `import js` ends only that session's
 * process. (With --isolation thread the same call aborts the whole server: see SECURITY.md.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, textOf, type Harness } from '../helpers.js';

describe('process isolation', () => {
  let h: Harness;
  before(async () => {
    h = await startServer(['--isolation', 'process', '--timeout', '60']);
  });
  after(() => h.close());

  it('sessions keep state, are interrupted at the deadline and isolated, as with threads', async () => {
    const { session_id } = await h.ok('execute_code', { code: 'kept = 41' });
    const timeout = await h.ok('execute_code', { session_id, code: 'while True: pass', timeout_seconds: 0.5 });
    assert.equal(timeout.error.type, 'TimeoutError');
    assert.match(timeout.error.message, /interrupted/);
    assert.equal((await h.ok('execute_code', { session_id, code: 'kept + 1' })).result, '42');
    const other = await h.ok('execute_code', { code: 'kept' });
    assert.equal(other.error.type, 'NameError');
  });

  it("the session process's pipes to the server are out of Python's reach", async () => {
    // fd 3 is the supervisor's channel, fd 4 the worker's own (workers/thread/direct-channel.ts). Python's descriptors are
    // Emscripten's, not the process's: a frame written there never reaches the server.
    const { session_id } = await h.ok('execute_code', { code: 'kept = "intact"' });
    const frame = 'bytes([0, 0, 0, 5]) + b"junk!"';
    for (const fd of [3, 4]) {
      const wrote = await h.ok('execute_code', { session_id, code: `import os\nos.write(${fd}, ${frame})` });
      assert.equal(wrote.error?.type, 'OSError', `fd ${fd}: ${JSON.stringify(wrote)}`);
    }
    const handles = await h.ok('execute_code', {
      session_id,
      code: 'import js\n[hasattr(js.process, n) for n in ("_getActiveHandles", "stdout", "binding")]',
    });
    assert.equal(handles.result, '[False, False, False]');
    assert.equal((await h.ok('execute_code', { session_id, code: 'kept' })).result, "'intact'");
  });

  it('a JavaScript allocation that aborts V8 ends only its own session', async () => {
    const victim = await h.ok('execute_code', { code: 'import js\nx = 1' });
    const bystander = await h.ok('execute_code', { code: 'y = "still here"' });
    const bomb = await h.ok('execute_code', { session_id: victim.session_id, code: 'js.Array.new(300_000_000).fill(1.5)' });
    assert.equal(bomb.success, false);
    // The worker's isolate aborts (its process exits), or on a loaded machine the garbage collector thrashes at the
    // heap cap until the timeout ends the session: either way only this session.
    assert.match(bomb.error.message, /exited unexpectedly|was terminated|lost its worker/);
    const gone = await h.call('execute_code', { session_id: victim.session_id, code: 'x' });
    assert.match(textOf(gone), /SESSION_DEAD/);
    await h.client.ping();
    assert.equal((await h.ok('execute_code', { session_id: bystander.session_id, code: 'y' })).result, "'still here'");
    assert.equal((await h.ok('execute_code', { code: '1 + 1' })).result, '2', 'new sessions still start');
  });
});
