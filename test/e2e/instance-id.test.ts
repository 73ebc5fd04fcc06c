/**
 * --instance-id over real stdio: session ids carry the server's routing prefix, a call naming another instance's
 * session is told where it belongs (not "unknown session"), and a saved session (--state-dir) with a prefixed id is
 * restored by a new server process with the same instance id.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CLI, startServer, textOf } from '../helpers.js';

describe('--instance-id', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pyodide-mcp-instance-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('prefixes session ids, names the right instance for a foreign id, and restores prefixed ids', async () => {
    const flags = ['--instance-id', 'py-a', '--state-dir', dir];
    const first = await startServer(flags);
    let s: string;
    try {
      s = (await first.ok('execute_code', { code: 'x = 41' })).session_id as string;
      assert.match(s, /^py-a\.[A-Za-z0-9_-]{32}$/);
      const random = s.slice('py-a.'.length);

      const foreign = await first.call('execute_code', { session_id: `py-b.${random}`, code: 'x' });
      assert.ok(foreign.isError);
      assert.match(textOf(foreign), /^WRONG_INSTANCE: .*belongs to instance "py-b" but this server is instance "py-a"/);
      const closing = await first.call('close_session', { session_id: `py-b.${random}` });
      assert.match(textOf(closing), /^WRONG_INSTANCE/);
      // One of this instance's ids that does not exist is unknown, as always.
      const unknown = await first.call('execute_code', { session_id: `py-a.${'Z'.repeat(32)}`, code: 'x' });
      assert.match(textOf(unknown), /^SESSION_NOT_FOUND/);
    } finally {
      await first.close();
    }

    const second = await startServer(flags);
    try {
      const reply = await second.call('execute_code', { session_id: s, code: 'x + 1' });
      assert.ok(!reply.isError, textOf(reply));
      assert.equal((reply.structuredContent as { result: string }).result, '42');
    } finally {
      await second.close();
    }
  });

  it('refuses an instance id that is not short lowercase letters, digits and hyphens, saying what is allowed', () => {
    const r = spawnSync(process.execPath, [CLI, '--instance-id', 'Py_A'], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /Invalid value "Py_A" for --instance-id: expected 1 to 32 of a-z, 0-9 and "-"/);
  });
});
