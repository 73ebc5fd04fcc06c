/**
 * Two instances sharing one --state-dir on loopback (real HTTP servers, real clients): a session's lease keeps it on
 * its instance while that lives (a call elsewhere is told where it runs); after kill -9 the session is restored on
 * the other instance once its lease is stale, exactly once, with its variables and files, and its reply says
 * `restored`; a drained instance releases its leases, so its sessions move at once.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { connectHttp, startHttp, type RunningHttp } from '../http-helpers.js';

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const reply = await client.callTool({ name, arguments: args });
  const text = (reply.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
  return { reply, text, data: (reply.structuredContent ?? {}) as Record<string, unknown> };
}

/**
 * --state-lease of the instances: renewed every third of it. 4 s, not 2: a holder's renewal that a loaded machine
 * delays past the lease would let another instance take a live session, and the test would fail for the machine.
 */
const LEASE_S = 4;

describe('instances sharing --state-dir', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pyodide-mcp-shared-'));
  const running: RunningHttp[] = [];
  const clients: Client[] = [];
  after(async () => {
    for (const client of clients) await client.close().catch(() => {});
    for (const server of running) if (server.child.exitCode === null && server.child.signalCode === null) await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const instance = async (name: string) => {
    const server = await startHttp(['--state-dir', dir, '--instance-id', name, '--state-lease', String(LEASE_S), '--drain-grace', '5']);
    running.push(server);
    const client = await connectHttp(server.url);
    clients.push(client);
    return { server, client };
  };

  it('moves a session from a killed instance once its lease is stale (one of two racers wins), and from a drained one at once', async () => {
    const a = await instance('sh-a');
    const b = await instance('sh-b');
    const c = await instance('sh-c');
    const s = (await call(a.client, 'execute_code', { code: 'x = 41' })).data.session_id as string;
    assert.match(s, /^sh-a\./);
    await call(a.client, 'write_file', { session_id: s, path: 'notes.txt', content: 'kept' });

    // While sh-a runs it (renewing its lease), sh-b does not take it.
    await new Promise((r) => setTimeout(r, LEASE_S * 1000 + 500));
    const held = await call(b.client, 'execute_code', { session_id: s, code: 'x' });
    assert.ok(held.reply.isError);
    assert.match(held.text, /^WRONG_INSTANCE: Session "sh-a\.[^"]+" is running on instance "sh-a"/);

    a.server.child.kill('SIGKILL');
    await a.server.exited;
    const early = await call(b.client, 'execute_code', { session_id: s, code: 'x' });
    assert.match(early.text, /^WRONG_INSTANCE: .*running on instance "sh-a"/, 'the lease is not stale yet');
    await new Promise((r) => setTimeout(r, LEASE_S * 1000 + 200));

    // sh-b and sh-c race to restore it: one does, the other is told which one holds it.
    const raced = await Promise.all([b, c].map(({ client }) => call(client, 'execute_code', { session_id: s, code: 'x + 1' })));
    const won = raced.findIndex((r) => !r.reply.isError);
    assert.ok(won >= 0, raced.map((r) => r.text).join(' | '));
    const [winner, loser] = won === 0 ? [b, c] : [c, b];
    const winnerName = won === 0 ? 'sh-b' : 'sh-c';
    const moved = raced[won]!;
    assert.equal(moved.data.result, '42');
    assert.deepEqual(moved.data.restored, { cells: 1, failed: [], skipped: [], dropped: 0, unread: [], files: 1, skipped_files: [] });
    assert.match(raced[1 - won]!.text, new RegExp(`^WRONG_INSTANCE: .*running on instance "${winnerName}"`));
    assert.doesNotMatch(loser.server.stderr(), /restoring session/, 'the loser replayed nothing');
    const file = await call(winner.client, 'read_file', { session_id: s, path: 'notes.txt' });
    assert.match(file.text, /kept/);
    const next = await call(winner.client, 'execute_code', { session_id: s, code: 'x = x + 10' });
    assert.ok(!next.data.restored, 'restored exactly once');
    assert.equal((winner.server.stderr().match(/restoring session/g) ?? []).length, 1);

    // SIGTERM drains the winner: its leases are released, so the other restores the session without waiting.
    winner.server.child.kill('SIGTERM');
    assert.equal(await winner.server.exited, 0);
    const again = await call(loser.client, 'execute_code', { session_id: s, code: 'x' });
    assert.ok(!again.reply.isError, again.text);
    assert.equal(again.data.result, '51');
    assert.ok(again.data.restored);
  });
});
