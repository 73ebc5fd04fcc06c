/**
 * The boundary between sessions and the limits the host keeps (issue: sandbox round 2). Each attack is run over the
 * real server, in both isolations where it applies, and each test asserts that the attack failed, that the server
 * still answers and that a bystander session still has its variables.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { rssOf } from '../../src/sessions/memory-watchdog.js';
import { textOf } from '../helpers.js';
import { startProbeServer, type ProbeServer } from './probe.js';

/** Resident memory of the server process tree's root (the server itself), in MB. */
const serverRssMb = (p: ProbeServer) => (rssOf(p.h.transport.pid!) ?? 0) / 2 ** 20;

/** Runs code and returns the raw tool result (a dead session answers with a tool error). */
const raw = (p: ProbeServer, session: string, code: string, timeout = 60) =>
  p.h.call('execute_code', { session_id: session, code, timeout_seconds: timeout }) as Promise<CallToolResult>;

/** The session is gone, and later calls say why. */
async function assertDead(p: ProbeServer, session: string, why: RegExp): Promise<void> {
  const later = await raw(p, session, '1');
  assert.equal(later.isError, true, 'later calls on the session fail');
  assert.match(textOf(later), /SESSION_DEAD/);
  assert.match(textOf(later), why);
}

for (const isolation of ['process', 'thread'] as const) {
  describe(`boundary between sessions (--isolation ${isolation})`, () => {
    let p: ProbeServer;
    let snapshots: string;
    before(async () => {
      snapshots = mkdtempSync(join(tmpdir(), 'pyodide-mcp-snapshots-'));
      // No warm pool: sessions boot one after another, so the first makes the snapshot and later ones boot from it.
      p = await startProbeServer([
        '--preload',
        'none',
        '--isolation',
        isolation,
        '--warm-sessions',
        '0',
        '--snapshot-dir',
        snapshots,
        '--max-reply-bytes',
        '1048576',
      ]);
    });
    after(async () => {
      await p.close();
      rmSync(snapshots, { recursive: true, force: true });
    });

    it('class 1: writing into the snapshot a session booted from changes no other session', async () => {
      const attacker = await p.newSession();
      const poke = await p.run(
        attacker,
        [
          'import sys, pyodide_js',
          'snap = pyodide_js._api.config._loadSnapshot',
          'data = snap.to_bytes() if snap else b""',
          'i = data.find(sys.copyright[:30].encode())',
          'if i >= 0:',
          '    for k in range(9): snap[i + k] = ord("X")',
          '(bool(snap), i >= 0)',
        ].join('\n'),
      );
      assert.equal(poke.success, true, JSON.stringify(poke.error));
      assert.equal(poke.result, '(True, True)', 'the attacker booted from a snapshot and found its target in it');
      const later = await p.newSession();
      assert.equal(
        (await p.run(later, 'import sys\nsys.copyright[:9]')).result,
        "'Copyright'",
        'a session created afterwards is untouched',
      );
      await p.assertUnharmed();
    });

    it('classes 2 and 3: Python cannot re-point output at the MCP stream or the channel descriptor', async () => {
      const s = await p.newSession();
      for (const fd of [1, 3]) {
        const forged = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', data: 'FORGED' } });
        const r = await p.run(
          s,
          [
            'import js, os, pyodide_js',
            'from pyodide.ffi import to_js',
            `js.globalThis.process = to_js({"stdout": {"fd": ${fd}}, "stderr": {"fd": ${fd}}, "stdin": {"fd": 0}}, dict_converter=js.Object.fromEntries)`,
            'refused = []',
            'for name in ("setStdout", "setStderr", "setStdin"):',
            '    try:\n        getattr(pyodide_js, name)()\n    except Exception as e:\n        refused.append(str(e))',
            `os.write(1, ${JSON.stringify(forged + '\n')}.encode())`,
            'print("\\xff" * 1000)',
            'refused',
          ].join('\n'),
        );
        assert.match(
          r.result ?? '',
          /pyodide\.setStdout is disabled in the pyodide-mcp sandbox.*setStderr.*setStdin/,
          `fd ${fd}: ${r.result}`,
        );
      }
      assert.equal((await p.run(s, '6 * 7')).result, '42', 'the session itself carries on');
      assert.ok((await p.h.client.listTools()).tools.length > 5, 'the protocol stream is intact');
      await p.assertUnharmed();
    });

    it('class 5: every field of a reply is capped by the host, and a whole reply stays under --max-reply-bytes', async () => {
      const s = await p.newSession();
      await p.run(s, 'kept = 1');
      for (const code of [
        "raise ValueError('A' * 8_000_000)",
        "E = type('E' * 2_000_000, (Exception,), {})\nraise E('x')",
        "from IPython.display import display, Markdown\ndisplay(Markdown('M' * 2_000_000))",
        // The harness is in the user's realm: unbounded streams from a rebound harness must still be cut.
        "import sys, pyodide_mcp_harness as h\nh.BoundedStream.write = lambda self, t: (self.parts.append(t), len(t))[1]\nprint('P' * 3_000_000)",
      ]) {
        const result = await raw(p, s, code);
        const size = Buffer.byteLength(JSON.stringify(result));
        assert.ok(size <= 1_048_576, `reply of ${size} bytes for ${code.slice(0, 40)}`);
        const reply = result.structuredContent as { truncated: Record<string, number> | null };
        assert.ok(reply.truncated, `the reply says what was cut for ${code.slice(0, 40)}`);
      }
      assert.equal((await p.run(s, 'kept + 1')).result, '2', 'the session lives on');
      await p.assertUnharmed();
    });

    it('class 6: a file planted directly in the virtual file system over the quota is never taken by the host', async () => {
      const s = await p.newSession();
      const rssBefore = serverRssMb(p);
      const result = await raw(
        p,
        s,
        [
          'import js, pyodide_js',
          "open('/workspace/big.bin', 'wb').close()",
          "node = pyodide_js.FS.lookupPath('/workspace/big.bin').node",
          'node.contents = js.Uint8Array.new(300 * 1024 * 1024)',
          'node.usedBytes = 300 * 1024 * 1024',
          'node.timestamp = 1',
        ].join('\n'),
      );
      // Either the worker refuses to report it or the host ends the session; never a 300 MB file in the server.
      const listing = await p.h.call('list_files', { session_id: s });
      if (!listing.isError) assert.ok(!textOf(listing).includes('big.bin'), 'the planted file is not listed');
      else await assertDead(p, s, /file limits|quota|--max-session-bytes|--max-file-bytes/);
      if (isolation === 'process')
        assert.ok(serverRssMb(p) - rssBefore < 150, `server RSS grew by ${Math.round(serverRssMb(p) - rssBefore)} MB`);
      assert.ok(result, 'the call answered');
      await p.assertUnharmed();
    });
  });
}

describe('boundary: what only process isolation contains', () => {
  let p: ProbeServer;
  before(async () => {
    p = await startProbeServer(['--isolation', 'process', '--preload', 'none', '--max-session-memory-mb', '1024', '--warm-sessions', '1']);
  });
  after(() => p.close());

  it('class 4: exhausting the V8 heap from Python ends only that session', async () => {
    const s = await p.newSession();
    const result = await raw(
      p,
      s,
      'import js\nk = [js.Array.new(1_000_000).fill(0.5) for _ in range(30)]\njs.Reflect.ownKeys(js.Uint8Array.new(12_000_000))',
    );
    assert.ok(result.isError || (result.structuredContent as { success: boolean }).success === false);
    await assertDead(p, s, /exited|ended|memory/);
    await p.assertUnharmed();
  });

  it('class 7: memory outside the engine caps is bounded by --max-session-memory-mb, and the server does not grow', async () => {
    const s = await p.newSession();
    const before = serverRssMb(p);
    const result = await raw(p, s, 'import js\nhog = [js.Uint8Array.new(2**30).fill(7) for _ in range(3)]');
    assert.equal((result.structuredContent as { success: boolean } | undefined)?.success ?? false, false);
    await assertDead(p, s, /--max-session-memory-mb/);
    assert.ok(serverRssMb(p) - before < 150, `server RSS grew by ${Math.round(serverRssMb(p) - before)} MB`);
    await p.assertUnharmed();
  });
});
