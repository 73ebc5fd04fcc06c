/** The stdio transport under messages too large or malformed: the server answers or logs, and carries on. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { ProtocolError } from '@modelcontextprotocol/client';
import { CLI, startServer, textOf } from '../helpers.js';
import { LineFramer, type OversizedLine } from '../../src/server/line-framer.js';
import { maxMessageBytes } from '../../src/server/stdio-transport.js';

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

describe('LineFramer', () => {
  /** Feeds `input` in chunks of `size` bytes; returns the lines passed on and the lines skipped. */
  const frame = (limit: number, input: string, size = input.length) => {
    const lines: string[] = [];
    const skipped: OversizedLine[] = [];
    const framer = new LineFramer(
      limit,
      (line) => lines.push(line.toString()),
      (line) => skipped.push(line),
    );
    const bytes = Buffer.from(input);
    for (let i = 0; i < bytes.length; i += size) framer.push(bytes.subarray(i, i + size));
    return { lines, skipped };
  };

  it('passes whole lines up to the limit, skips longer ones, whatever the chunking', () => {
    const input =
      'a'.repeat(10) + '\n' + 'b'.repeat(11) + '\n\n\r\n' + 'c'.repeat(9) + '\r\n' + 'd'.repeat(25) + '\n' + 'e\n' + 'unfinished';
    for (const size of [1, 2, 3, 7, 64, input.length]) {
      const { lines, skipped } = frame(10, input, size);
      assert.deepEqual(lines, ['a'.repeat(10) + '\n', 'c'.repeat(9) + '\r\n', 'e\n'], `chunks of ${size}`);
      assert.deepEqual(
        skipped.map((s) => s.bytes),
        [11, 25],
        `chunks of ${size}`,
      );
    }
  });

  it("finds the top-level id and method of a skipped line, wherever they are, and nothing else's", () => {
    const pad = 'x'.repeat(100);
    const cases: [object | string, OversizedLine['id'], string | undefined][] = [
      // The SDK client's order: id last, after params.
      [
        { method: 'tools/call', params: { name: 'execute_code', arguments: { code: pad, id: 7 } }, jsonrpc: '2.0', id: 12 },
        12,
        'tools/call',
      ],
      [{ jsonrpc: '2.0', id: 'a"b\\c', method: 'tools/call', params: { pad } }, 'a"b\\c', 'tools/call'],
      [{ jsonrpc: '2.0', method: 'notifications/x', params: { id: 3, pad, text: '"id": 4, \\"id\\": 5' } }, undefined, 'notifications/x'],
      [{ jsonrpc: '2.0', id: { nested: 1 }, method: 7, pad }, undefined, undefined],
      [`[{"jsonrpc":"2.0","id":1,"method":"ping","pad":"${pad}"}]`, undefined, undefined],
      [`{ "id" : -3 , "method" : "ping" , "pad" : "${pad}" }`, -3, 'ping'],
      [`not json ${pad} "id": 1`, undefined, undefined],
    ];
    for (const [message, id, method] of cases) {
      const line = typeof message === 'string' ? message : JSON.stringify(message);
      for (const size of [1, 5, 4096]) {
        const { lines, skipped } = frame(50, line + '\n', size);
        assert.deepEqual(lines, []);
        assert.deepEqual(skipped, [{ bytes: Buffer.byteLength(line), id, method }], `${line.slice(0, 60)} in chunks of ${size}`);
      }
    }
  });

  it('sizes the limit from --max-code-chars and --max-file-bytes', () => {
    assert.equal(maxMessageBytes({ maxCodeChars: 200_000, maxFileBytes: 50 * 2 ** 20 }), 88_429_911);
    // The base64 of the largest file, inside a whole write_file request, fits with room to spare.
    assert.ok(maxMessageBytes({ maxCodeChars: 1, maxFileBytes: 3_000_000 }) > 4_000_000 + 10_000);
    assert.ok(maxMessageBytes({ maxCodeChars: 1_000_000, maxFileBytes: 0 }) > 6_000_000 + 10_000, 'code written entirely in \\u escapes');
  });
});

describe('oversized messages over stdio', () => {
  it('with the default limits, an 8 MB write_file succeeds and a 12 MB code gets a tool error; the server carries on', async () => {
    // Both used to pass the SDK's 10 MiB read buffer, which closed the transport and ended the server.
    const h = await startServer(['--warm-sessions', '0']);
    try {
      const session_id = (await h.ok('execute_code', { code: 'x = 41' })).session_id;
      const file = randomBytes(8 * 2 ** 20);
      const written = await h.ok('write_file', { session_id, path: 'big.bin', content: file.toString('base64'), encoding: 'base64' });
      assert.equal(written.size, file.byteLength);
      const hash = await h.ok('execute_code', {
        session_id,
        code: 'import hashlib\nhashlib.sha256(open("big.bin", "rb").read()).hexdigest()',
      });
      assert.equal(hash.result, `'${sha256(file)}'`);

      const long = await h.call('execute_code', { session_id, code: 'y = 1\n' + '#'.repeat(12_000_000) });
      assert.equal(long.isError, true);
      assert.match(
        textOf(long),
        /^INVALID_INPUT: code is 12000006 characters, more than the limit of 200000 \(--max-code-chars\)\. Split it/,
      );
      await h.client.ping();
      assert.equal((await h.ok('execute_code', { session_id, code: 'x + 1' })).result, '42');
    } finally {
      await h.close();
    }
  });

  it('a message over the limit is answered with an error naming its size, and the sessions survive', async () => {
    const limit = maxMessageBytes({ maxCodeChars: 200_000, maxFileBytes: 2_000_000 });
    const h = await startServer(['--warm-sessions', '0', '--max-file-bytes', '2000000']);
    try {
      assert.match(h.stderr(), new RegExp(`ready on stdio \\(messages up to ${limit} bytes\\)`));
      const session_id = (await h.ok('execute_code', { code: 'x = 41' })).session_id;

      const overLimit = (error: unknown) => {
        assert.ok(error instanceof ProtocolError, String(error));
        assert.equal(error.code, -32600);
        const bytes = Number(/Request of (\d+) bytes/.exec(error.message)?.[1]);
        assert.ok(bytes > limit, error.message);
        assert.match(
          error.message,
          new RegExp(
            `over this server's limit of ${limit} bytes per message .*split code into several execute_code calls .*write_file append: true`,
          ),
        );
        return true;
      };
      await assert.rejects(h.call('execute_code', { session_id, code: 'y = 1\n' + '#'.repeat(12_000_000) }), overLimit);
      const file = randomBytes(4_000_000);
      await assert.rejects(
        h.call('write_file', { session_id, path: 'big.bin', content: file.toString('base64'), encoding: 'base64' }),
        overLimit,
      );
      assert.equal(
        (
          h
            .stderr()
            .match(/skipped tools\/call \(id \d+\) of \d+ bytes: over the limit of \d+ bytes per message; answered with an error/g) ?? []
        ).length,
        2,
      );

      await h.client.ping();
      assert.equal((await h.ok('execute_code', { session_id, code: 'x + 1' })).result, '42', 'the session kept its variables');
      const files = await h.ok('list_files', { session_id });
      assert.deepEqual(files.entries, [], 'nothing of the skipped write reached the session');

      // Under the message limit, each tool's own limit still answers with a tool error.
      const code = await h.call('execute_code', { session_id, code: '#'.repeat(300_000) });
      assert.match(textOf(code), /^INVALID_INPUT: code is 300000 characters, more than the limit of 200000/);
      const tooBig = await h.call('write_file', {
        session_id,
        path: 'big.bin',
        content: randomBytes(2_500_000).toString('base64'),
        encoding: 'base64',
      });
      assert.match(textOf(tooBig), /^QUOTA_EXCEEDED/);
      // And the largest legitimate write fits.
      const largest = randomBytes(2_000_000);
      assert.equal(
        (await h.ok('write_file', { session_id, path: 'ok.bin', content: largest.toString('base64'), encoding: 'base64' })).size,
        2_000_000,
      );
      assert.equal(
        (await h.ok('execute_code', { session_id, code: 'import hashlib\nhashlib.sha256(open("ok.bin", "rb").read()).hexdigest()' }))
          .result,
        `'${sha256(largest)}'`,
      );
    } finally {
      await h.close();
    }
  });

  it('raw lines: invalid JSON, a non-JSON-RPC object and oversized lines without an id are logged and skipped', async () => {
    const child = spawn(
      process.execPath,
      [CLI, '--preload', 'none', '--warm-sessions', '0', '--max-file-bytes', '1000', '--max-code-chars', '1000'],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH ?? '' },
      },
    );
    const limit = maxMessageBytes({ maxCodeChars: 1000, maxFileBytes: 1000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const replies = () =>
      stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line));
    const reply = async (id: number | string) => {
      for (;;) {
        const found = replies().find((r) => r.id === id);
        if (found) return found;
        await once(child.stdout, 'data');
      }
    };
    const send = (line: string) => child.stdin.write(line + '\n');
    try {
      send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
        }),
      );
      await reply(1);
      send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      send('this is not json');
      send('{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "execute_code", "arguments": {"code": "1"}');
      send(JSON.stringify({ hello: 'world' }));
      const huge = 'z'.repeat(limit + 10);
      send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { data: huge } })); // a notification has no id
      send(`[${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping', params: { pad: huge } })}]`); // a batch: no single id
      send('x'.repeat(limit + 10)); // not JSON at all
      // id first, as some clients write it; a nested "id" inside params must not be taken for it.
      send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 'big-1',
          method: 'tools/call',
          params: { id: 99, name: 'execute_code', arguments: { code: huge } },
        }),
      );
      send(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ping' }));
      assert.deepEqual((await reply(4)).result, {});
      const big = await reply('big-1');
      assert.equal(big.error.code, -32600);
      assert.match(big.error.message, new RegExp(`^Request of \\d+ bytes is over this server's limit of ${limit} bytes per message`));
      assert.equal(
        replies().some((r) => r.id === 2 || r.id === 3 || r.id === 99),
        false,
        'no reply to a broken or skipped line',
      );
      assert.match(stderr, /stdio: ignored a line that is not JSON \(.*"this is not json" is not valid JSON\)/);
      assert.equal((stderr.match(/stdio: ignored a line that is not JSON/g) ?? []).length, 2, stderr);
      assert.match(stderr, /stdio: ignored a line that is JSON but not a JSON-RPC message/);
      assert.equal((stderr.match(/skipped .* bytes: over the limit of \d+ bytes per message; no id to answer/g) ?? []).length, 3, stderr);
      assert.match(stderr, /skipped tools\/call \(id "big-1"\) of \d+ bytes: over the limit/);
      assert.equal(child.exitCode, null, 'still running');
      for (const r of replies()) assert.equal(r.jsonrpc, '2.0');
    } finally {
      const exited = once(child, 'exit');
      child.stdin.end();
      const [code] = await exited;
      assert.equal(code, 0);
    }
  });
});
