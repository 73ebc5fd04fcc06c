/**
 * /healthz and drain over the real HTTP server on loopback: health without a token (ready, then draining); POST
 * /drain needs the operator's token; a drain refuses new MCP sessions and new Python sessions, lets a running cell
 * finish, keeps the saved state (a new process restores it) and exits 0; SIGTERM with a short --drain-grace ends a
 * cell that runs past it with SERVER_CLOSING, and the process still exits; a 2026-07-28 client's open
 * subscriptions/listen stream is not a running call: it does not hold the drain, and it is ended when the server exits.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Client as ModernClient, StreamableHTTPClientTransport, type Client } from '@modelcontextprotocol/client';
import { connectHttp, startHttp } from '../http-helpers.js';

const TOKEN = 'drain-test-token-0123456789';

interface Health {
  code: number;
  body: { status: string; instance: string | null; sessions: number; calls: number };
}

async function health(url: URL): Promise<Health> {
  const res = await fetch(new URL('/healthz', url));
  return { code: res.status, body: (await res.json()) as Health['body'] };
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const reply = await client.callTool({ name, arguments: args });
  const text = (reply.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
  return { reply, text, data: reply.structuredContent as Record<string, unknown> | undefined };
}

/** A cell that keeps Python busy for `seconds` (a loop: it runs until its end, not until a signal). */
const busy = (seconds: number) => `import time\nt0 = time.time()\nwhile time.time() - t0 < ${seconds}: pass\ny = 2`;

describe('/healthz and drain', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pyodide-mcp-drain-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const auth = { Authorization: `Bearer ${TOKEN}` };

  it('POST /drain: health says draining, new sessions are refused, the running cell ends, state is kept, exit 0', async () => {
    const flags = ['--state-dir', dir, '--instance-id', 'dr-a', '--drain-grace', '60'];
    const server = await startHttp(flags, { PYODIDE_MCP_AUTH_TOKEN: TOKEN });
    const client = await connectHttp(server.url, TOKEN);
    let s: string;
    try {
      const ready = await health(server.url);
      assert.equal(ready.code, 200);
      assert.deepEqual(ready.body, { status: 'ready', instance: 'dr-a', sessions: 0, calls: 0 });

      s = (await call(client, 'execute_code', { code: 'x = 41' })).data!.session_id as string;
      const running = call(client, 'execute_code', { session_id: s, code: busy(3) });
      // The cell is under way once health counts a call.
      for (let i = 0; (await health(server.url)).body.calls === 0; i++) {
        assert.ok(i < 200, 'the cell started');
        await new Promise((r) => setTimeout(r, 25));
      }

      const noToken = await fetch(new URL('/drain', server.url), { method: 'POST' });
      assert.equal(noToken.status, 401);
      const wrongMethod = await fetch(new URL('/drain', server.url), { headers: auth });
      assert.equal(wrongMethod.status, 405);
      const drain = await fetch(new URL('/drain', server.url), { method: 'POST', headers: auth });
      assert.equal(drain.status, 202);
      assert.deepEqual(await drain.json(), { status: 'draining' });

      const draining = await health(server.url);
      assert.equal(draining.code, 503);
      assert.equal(draining.body.status, 'draining');
      // No new MCP session, no new Python session.
      await assert.rejects(connectHttp(server.url, TOKEN), /503|draining/);
      const fresh = await call(client, 'execute_code', { code: '1' });
      assert.ok(fresh.reply.isError);
      assert.match(fresh.text, /^SERVER_CLOSING: This server is draining/);

      const done = await running;
      assert.ok(!done.reply.isError, done.text);
      assert.equal(done.data!.success, true);
      assert.equal(await server.exited, 0);
      assert.match(server.stderr(), /shutting down \(POST \/drain\)/);
    } finally {
      await client.close().catch(() => {});
      if (server.child.exitCode === null) await server.stop();
    }

    // The drained server's session, state saved, is restored by the next process with its variables.
    const next = await startHttp(flags, { PYODIDE_MCP_AUTH_TOKEN: TOKEN });
    const again = await connectHttp(next.url, TOKEN);
    try {
      const restored = await call(again, 'execute_code', { session_id: s, code: 'x + y' });
      assert.ok(!restored.reply.isError, restored.text);
      assert.equal(restored.data!.result, '43');
      assert.ok(restored.data!.restored, 'the reply says the session was restored');
    } finally {
      await again.close().catch(() => {});
      await next.stop();
    }
  });

  it('SIGTERM: a cell running past --drain-grace ends with SERVER_CLOSING and the server exits 0', async () => {
    const server = await startHttp(['--drain-grace', '1']);
    const client = await connectHttp(server.url);
    try {
      const s = (await call(client, 'execute_code', { code: 'x = 1' })).data!.session_id as string;
      const running = call(client, 'execute_code', { session_id: s, code: busy(30) });
      for (let i = 0; (await health(server.url)).body.calls === 0; i++) {
        assert.ok(i < 200, 'the cell started');
        await new Promise((r) => setTimeout(r, 25));
      }
      const started = Date.now();
      server.child.kill('SIGTERM');
      const ended = await running;
      assert.ok(ended.reply.isError);
      assert.match(ended.text, /^SERVER_CLOSING/);
      assert.equal(await server.exited, 0);
      const took = Date.now() - started;
      assert.ok(took >= 900 && took < 15_000, `exited ${took} ms after SIGTERM`);
      assert.match(server.stderr(), /drain grace over: 1 calls still running/);
    } finally {
      await client.close().catch(() => {});
      if (server.child.exitCode === null) await server.stop();
    }
  });

  it('an open subscriptions/listen stream does not hold the drain: with no running cell it exits at once', async (t) => {
    const server = await startHttp(['--drain-grace', '30']);
    const client = new ModernClient({ name: 'listener', version: '0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(server.url));
    try {
      // A session, idle: the drain has nothing to wait for but the stream.
      assert.equal((await call(client, 'execute_code', { code: 'x = 1' })).data!.success, true);
      const subscription = await client.listen({ toolsListChanged: true });
      // The stream is open (acknowledged) and not counted as a call.
      assert.deepEqual((await health(server.url)).body.calls, 0);
      const started = Date.now();
      server.child.kill('SIGTERM');
      assert.equal(await server.exited, 0);
      const took = Date.now() - started;
      assert.ok(took < 10_000, `exited ${took} ms after SIGTERM (--drain-grace 30 s)`);
      t.diagnostic(`exited ${took} ms after SIGTERM with a listen stream open`);
      assert.doesNotMatch(server.stderr(), /drain grace over/);
      assert.match(server.stderr(), /draining: 0 calls running, 1 sessions/);
      // The client was told its subscription ended (it can listen again elsewhere).
      await subscription.closed;
    } finally {
      await client.close().catch(() => {});
      if (server.child.exitCode === null) await server.stop();
    }
  });
});
