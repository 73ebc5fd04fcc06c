/**
 * The wire contract (src/wire/contract.ts): what the server and a supervisor accept from a session, and that the
 * harness (workers/python/harness.py) mirrors its ops. Pure checks, no server.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import {
  emptyOutcome,
  harnessRequestSchemas,
  MAX_LOG_CHARS,
  parseRequest,
  REPLIES,
  sessionMessageSchema,
  WORKER_REPLIES,
} from '../../src/wire/contract.js';
import { HARNESS_PATH } from '../../src/paths.js';

const outcome = { ...emptyOutcome(1), result: '2' };

describe('messages from a session', () => {
  it('rejects anything that is not in the contract', () => {
    for (const raw of [
      null,
      'ready',
      42,
      [],
      {},
      { type: 'nope' },
      { type: 'ready' },
      { type: 'ready', info: { kind: 'evil' } },
      { type: 'log', message: 5 },
      { type: 'reply', id: -1, ok: true },
      { type: 'reply', id: 1.5, ok: true, value: 1 },
      { type: 'reply', id: 1 },
      { type: 'reply', id: 1, ok: false, error: 'boom' },
      { type: 'boot_failed', error: { code: 1 } },
      { type: 'snapshot', data: 'bytes' },
      { type: 'fatal', reason: 'x'.repeat(10_000) },
    ]) {
      assert.equal(sessionMessageSchema.safeParse(raw).success, false, JSON.stringify(raw)?.slice(0, 80));
    }
    assert.deepEqual(sessionMessageSchema.parse({ type: 'reply', id: 3, ok: true, value: null }), {
      type: 'reply',
      id: 3,
      ok: true,
      value: null,
    });
  });

  it('cuts oversized log lines', () => {
    const message = sessionMessageSchema.parse({ type: 'log', message: 'z'.repeat(MAX_LOG_CHARS * 3) });
    assert.ok(message.type === 'log' && message.message.length < MAX_LOG_CHARS + 20);
  });

  it('checks a reply against the op it answers', () => {
    assert.equal(REPLIES.execute.safeParse(outcome).success, true);
    assert.equal(REPLIES.execute.safeParse({ ...outcome, stdout: 5 }).success, false);
    const escaping = { ...outcome, changes: { written: [{ path: '../../etc/passwd', size: 1, mtimeMs: 0 }], deleted: [] } };
    assert.equal(REPLIES.execute.safeParse(escaping).success, false);
    assert.equal(REPLIES.execute.safeParse({ ...outcome, changes: { written: [], deleted: ['/abs'] } }).success, false);
    assert.equal(REPLIES.list_packages.safeParse({ loaded: 5 }).success, false);
    assert.equal(REPLIES.load_packages.safeParse({ surprise: true }).success, false);
    assert.equal(REPLIES.delete_file.safeParse({ written: [{ path: 'a/b.txt', size: 2, mtimeMs: 1 }], deleted: ['c'] }).success, true);
    // From the worker, written files carry their bytes; to the server, never.
    const withBytes = { written: [{ path: 'a', size: 1, mtimeMs: 1, data: new Uint8Array(1) }], deleted: [] };
    assert.equal(WORKER_REPLIES.write_file.safeParse(withBytes).success, true);
    assert.equal(WORKER_REPLIES.write_file.safeParse({ written: [{ path: 'a', size: 1, mtimeMs: 1 }], deleted: [] }).success, false);
  });

  it('parses requests by their type', () => {
    assert.deepEqual(parseRequest({ type: 'list_packages', id: 4 }), { type: 'list_packages', id: 4 });
    assert.throws(() => parseRequest({ type: 'rm_rf', id: 1 }), /unknown request type/);
    assert.throws(() => parseRequest({ type: 'read_file', id: 1, path: '../x', offset: 0, length: 1 }));
  });
});

describe('the harness mirrors the contract', () => {
  it('has the same ops with the same fields', () => {
    const source = readFileSync(HARNESS_PATH, 'utf8');
    const block = /^HARNESS_OPS = \{\n([\s\S]*?)\n\}/m.exec(source);
    assert.ok(block, 'workers/python/harness.py defines HARNESS_OPS');
    const handlers = new Map<string, string>();
    const ops = Object.fromEntries(
      [...block[1]!.matchAll(/^\s+"(\w+)": \((\w+), \[([^\]]*)\]\),$/gm)].map(([, op, handler, fields]) => {
        handlers.set(op!, handler!);
        return [op, [...fields!.matchAll(/"(\w+)"/g)].map((m) => m[1]).sort()];
      }),
    );
    const expected = Object.fromEntries(
      Object.entries(harnessRequestSchemas).map(([op, schema]) => [
        op,
        Object.keys(schema.shape)
          .filter((k) => k !== 'op')
          .sort(),
      ]),
    );
    assert.deepEqual(ops, expected);
    // And the entry point dispatches each of them, to a handler defined beside it.
    assert.match(source.slice(source.indexOf('def entry(')), /HARNESS_OPS\[op\]/, 'entry() dispatches from HARNESS_OPS');
    for (const [op, handler] of handlers)
      assert.match(source, new RegExp(`^def ${handler}\\(request\\):`, 'm'), `${op}: ${handler} is defined`);
  });
});
