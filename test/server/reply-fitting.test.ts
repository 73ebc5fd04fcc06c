/**
 * Reply fitting (src/server/execution-reply.ts): an execution's tool reply under --max-reply-bytes. What goes first
 * (images, last first), then the file list, then the longest strings; every cut said in `truncated` or a note. Pure,
 * no session.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { PyodideMcpError } from '../../src/errors.js';
import { executionReply } from '../../src/server/execution-reply.js';
import { jsonBytes } from '../../src/sessions/reply-caps.js';
import { emptyOutcome } from '../../src/wire/contract.js';

type Execution = Parameters<typeof executionReply>[1];
type Images = Parameters<typeof executionReply>[3];

const SESSION = 's'.repeat(32);
const options = { maxReplyBytes: 65_536, resourceLinks: false, newSession: false };

function execution(changes: Partial<Execution['outcome']> = {}, rest: Partial<Execution> = {}): Execution {
  return { outcome: { ...emptyOutcome(1), ...changes }, files: [], interrupted: null, terminated: null, durationMs: 5, ...rest };
}

/** `count` figures of `bytes` bytes each (as base64), shown by the cell in that order. */
function figures(count: number, bytes: number): { display: Execution['outcome']['display']; images: Images } {
  const paths = Array.from({ length: count }, (_, i) => `fig${i}.png`);
  return {
    display: paths.map((path) => ({ mime_type: 'image/png', path })),
    images: paths.map((path) => ({ path, mimeType: 'image/png', data: Buffer.alloc(bytes, 1).toString('base64') })),
  };
}

const fileRefs = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    uri: `session://${SESSION}/out/f${i}.csv`,
    name: `f${i}.csv`,
    path: `out/f${i}.csv`,
    mime_type: 'text/csv',
    size: i,
  }));

const structured = (reply: CallToolResult) => reply.structuredContent as Record<string, any>;
const kinds = (reply: CallToolResult) => reply.content.map((block) => block.type);

describe('reply fitting (--max-reply-bytes)', () => {
  it('leaves a reply that fits as it is: images inline, nothing marked cut', () => {
    const { display, images } = figures(2, 1000);
    const reply = executionReply(SESSION, execution({ stdout: 'hello\n', display }), 30_000, images, options);
    assert.deepEqual(kinds(reply), ['text', 'image', 'image']);
    assert.equal(structured(reply).truncated, null);
    assert.equal(structured(reply).stdout, 'hello\n');
    assert.ok(jsonBytes(reply) <= options.maxReplyBytes);
  });

  it('drops images first, the last shown first, each replaced by a note that names it', () => {
    // Three figures of 20 kB (about 27 kB of base64 each): two fit in 64 KiB with the rest of the reply, not three.
    const { display, images } = figures(3, 20_000);
    const reply = executionReply(SESSION, execution({ display }), 30_000, images, options);
    assert.deepEqual(kinds(reply), ['text', 'image', 'image', 'text']);
    const note = reply.content[3] as { text: string };
    assert.match(note.text, /^\(fig2\.png not inline: the reply would exceed --max-reply-bytes; read it as a resource\)$/);
    assert.ok(jsonBytes(reply) <= options.maxReplyBytes);
    // Images are not text: nothing of the structured reply was cut for them.
    assert.equal(structured(reply).truncated, null);
  });

  it('then shortens the file list, saying how many files were left out', () => {
    const reply = executionReply(SESSION, execution({}, { files: fileRefs(1000) }), 30_000, [], options);
    assert.ok(jsonBytes(reply) <= options.maxReplyBytes);
    const { files, truncated } = structured(reply);
    assert.ok(files.length > 0 && files.length <= 50, `${files.length} files kept`);
    assert.deepEqual(files[0], fileRefs(1)[0], 'the first files are the ones kept');
    assert.equal(truncated.files, 1000 - files.length);
  });

  it('then cuts the longest strings, adding to what was already cut', () => {
    const stdout = 'o'.repeat(200_000);
    const reply = executionReply(SESSION, execution({ stdout, stderr: 'short', truncated: { stdout: 7 } }), 30_000, [], options);
    assert.ok(jsonBytes(reply) <= options.maxReplyBytes);
    const { stdout: kept, stderr, truncated } = structured(reply);
    assert.match(kept, / \[\.\.\. cut to fit --max-reply-bytes\]$/);
    assert.equal(stderr, 'short', 'a short field is left whole');
    assert.ok(truncated.stdout > 7 + 100_000, `stdout cut by ${truncated.stdout}`);
    // The text block says so too, for a client that shows only text.
    assert.match((reply.content[0] as { text: string }).text, /truncated \(characters omitted\): \{"stdout":\d+\}/);
  });

  it('holds every budget the flag allows, whatever the reply holds', () => {
    const { display, images } = figures(4, 30_000);
    for (const maxReplyBytes of [65_536, 100_000, 300_000]) {
      const reply = executionReply(
        SESSION,
        execution({ stdout: 'x'.repeat(150_000), result: 'r'.repeat(50_000), display }, { files: fileRefs(300) }),
        30_000,
        images,
        { ...options, maxReplyBytes },
      );
      assert.ok(jsonBytes(reply) <= maxReplyBytes, `${jsonBytes(reply)} bytes in a budget of ${maxReplyBytes}`);
    }
  });

  it('shows no figure of an execution whose session was ended', () => {
    const { display, images } = figures(1, 100);
    const terminated = new PyodideMcpError('EXEC_TIMEOUT', 'Execution exceeded the time limit; the session was ended.');
    const reply = executionReply(SESSION, execution({ display }, { terminated }), 30_000, images, options);
    assert.deepEqual(kinds(reply), ['text']);
    assert.equal(structured(reply).error.type, 'TimeoutError');
  });
});
