/**
 * Restart survival (--state-dir) over real stdio: a session's variables and files survive SIGTERM and a new server
 * process; list_sessions shows it as restorable; the first call restores it and says which cells failed on replay;
 * close_session deletes the saved state; an untrusted state directory stops the server; a saved session expires with
 * the TTL.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CLI, startServer, textOf, type Harness } from '../helpers.js';

/** Sends SIGTERM to the server process and waits for it to exit. */
async function sigterm(h: Harness): Promise<void> {
  const pid = h.transport.pid;
  assert.ok(pid);
  const exited = new Promise<void>((resolve) => (h.transport.onclose = resolve));
  process.kill(pid, 'SIGTERM');
  await exited;
  await h.close().catch(() => {});
  assert.match(h.stderr(), /shutting down \(SIGTERM\)/);
}

describe('restart survival (--state-dir)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pyodide-mcp-state-'));
  const flags = ['--state-dir', dir];
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('restores variables and files after SIGTERM and a new server, and says which cells failed on replay', async () => {
    const first = await startServer(flags);
    const s = (await first.ok('execute_code', { code: 'x = 41' })).session_id as string;
    await first.ok('write_file', { session_id: s, path: 'data/notes.txt', content: 'kept across restarts' });
    const failing = await first.ok('execute_code', { session_id: s, code: '1/0' });
    assert.equal(failing.success, false);
    // A cell that writes a file the caller later overwrote: the restored workspace has the later version.
    await first.ok('execute_code', { session_id: s, code: "open('out.txt', 'w').write('from a cell')" });
    await first.ok('write_file', { session_id: s, path: 'out.txt', content: 'overwritten', overwrite: true });
    await first.ok('execute_code', { session_id: s, code: "open('gone.txt', 'w').write('x')" });
    await first.ok('delete_file', { session_id: s, path: 'gone.txt' });
    await sigterm(first);
    assert.ok(existsSync(join(dir, s)), 'the session is kept on disk at shutdown');
    // Private: the session directory and everything in it are this user's only.
    assert.equal(statSync(join(dir, s)).mode & 0o777, 0o700);
    for (const name of ['meta.json', 'files.json', 'cells.jsonl']) assert.equal(statSync(join(dir, s, name)).mode & 0o077, 0, name);

    const second = await startServer(flags);
    try {
      const { sessions } = await second.ok('list_sessions');
      const listed = sessions.find((entry: { session_id: string }) => entry.session_id === s);
      assert.ok(listed, JSON.stringify(sessions));
      assert.equal(listed.restorable, true);
      assert.equal(listed.busy, false);

      const reply = await second.call('execute_code', { session_id: s, code: 'x + 1' });
      assert.ok(!reply.isError, textOf(reply));
      const structured = reply.structuredContent as Record<string, any>;
      assert.equal(structured.result, '42');
      assert.equal(structured.restored.failed.length, 1);
      assert.equal(structured.restored.failed[0], failing.execution_count);
      assert.equal(structured.restored.cells, 4);
      assert.equal(structured.restored.files, 2);
      assert.match(
        textOf(reply),
        new RegExp(`session ${s} was restored after a server restart.*failed on replay: ${failing.execution_count}`),
      );

      const notes = await second.ok('read_file', { session_id: s, path: 'data/notes.txt' });
      assert.equal(notes.content, 'kept across restarts');
      assert.equal((await second.ok('read_file', { session_id: s, path: 'out.txt' })).content, 'overwritten');
      const files = (await second.ok('list_files', { session_id: s, recursive: true })).entries.map((e: { path: string }) => e.path);
      assert.ok(!files.includes('gone.txt'), JSON.stringify(files));

      // Restored once: the next call is an ordinary one, and the session is live in list_sessions.
      const next = await second.ok('execute_code', { session_id: s, code: 'x' });
      assert.equal(next.restored, undefined);
      const live = (await second.ok('list_sessions')).sessions.find((entry: { session_id: string }) => entry.session_id === s);
      assert.equal(live.restorable, false);

      // close_session deletes the saved state.
      await second.ok('close_session', { session_id: s });
      assert.ok(!existsSync(join(dir, s)));
    } finally {
      await second.close();
    }
  });

  it('restores a session through any tool, and close_session deletes one without restoring it', async () => {
    const first = await startServer(flags);
    const a = (await first.ok('execute_code', { code: 'y = 1' })).session_id as string;
    const b = (await first.ok('execute_code', { code: 'z = 2' })).session_id as string;
    await first.ok('write_file', { session_id: a, path: 'a.txt', content: 'A' });
    await sigterm(first);

    const second = await startServer(flags);
    try {
      const listing = await second.call('list_files', { session_id: a });
      assert.ok(!listing.isError, textOf(listing));
      assert.match(textOf(listing), /was restored after a server restart/);
      assert.equal((await second.ok('execute_code', { session_id: a, code: 'y' })).result, '1');
      await second.ok('close_session', { session_id: b });
      assert.ok(!existsSync(join(dir, b)));
      const gone = await second.call('execute_code', { session_id: b, code: 'z' });
      assert.ok(gone.isError);
      assert.match(textOf(gone), /SESSION_NOT_FOUND/);
      // Ids that are not session ids never reach the file system.
      const bad = await second.call('execute_code', { session_id: '../../etc', code: '1' });
      assert.match(textOf(bad), /SESSION_NOT_FOUND/);
    } finally {
      await second.close();
    }
  });

  it('expires saved sessions with --session-ttl', async () => {
    const ttlDir = mkdtempSync(join(tmpdir(), 'pyodide-mcp-state-'));
    try {
      const first = await startServer(['--state-dir', ttlDir, '--warm-sessions', '0', '--session-ttl', '2']);
      const s = (await first.ok('execute_code', { code: 'x = 1' })).session_id as string;
      await sigterm(first);
      await new Promise((resolve) => setTimeout(resolve, 2500));
      const second = await startServer(['--state-dir', ttlDir, '--warm-sessions', '0', '--session-ttl', '2']);
      try {
        const reply = await second.call('execute_code', { session_id: s, code: 'x' });
        assert.ok(reply.isError);
        assert.match(textOf(reply), /SESSION_EXPIRED|SESSION_NOT_FOUND/);
        assert.deepEqual(readdirSync(ttlDir), []);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(ttlDir, { recursive: true, force: true });
    }
  });

  it('refuses a state directory that others may write', () => {
    const open = mkdtempSync(join(tmpdir(), 'pyodide-mcp-state-'));
    try {
      chmodSync(open, 0o777);
      const r = spawnSync(process.execPath, [CLI, '--state-dir', open], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, PYODIDE_MCP_PRELOAD: 'none' },
      });
      assert.equal(r.status, 2, r.stderr);
      assert.match(r.stderr, /Cannot use --state-dir: .*writable by group or others/);
    } finally {
      rmSync(open, { recursive: true, force: true });
    }
  });
});
