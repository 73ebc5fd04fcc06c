/** The state store (--state-dir) on its own: ids, links, torn lines, bounds, expiry, permissions. */
import assert from 'node:assert/strict';
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { StateStore, type LoggedCell } from '../../src/sessions/state-store.js';

const ID = 'A'.repeat(32);
const OTHER = 'B'.repeat(32);
const limits = { maxFileBytes: 100, maxSessionBytes: 150, maxFiles: 3 };
const cell = (n: number, completed = true): LoggedCell => ({
  source: { code: `x = ${n}` },
  timeoutMs: 1000,
  completed,
  executionCount: n,
  at: 0,
});

describe('StateStore', () => {
  const root = mkdtempSync(join(tmpdir(), 'state-store-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  let n = 0;
  const fresh = (options: Partial<{ ttlMs: number; maxCells: number; maxBytes: number }> = {}) => {
    const dir = join(root, String(n++));
    const logged: string[] = [];
    const store = StateStore.open(dir, { ttlMs: 60_000, limits, maxCells: 5, maxBytes: 2 ** 20, log: (m) => logged.push(m), ...options });
    return { dir, store, logged };
  };

  it('creates the directory 0700 and refuses one others may write', () => {
    const { dir } = fresh();
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    const open = join(root, 'open');
    mkdirSync(open, { mode: 0o777 });
    chmodSync(open, 0o777);
    assert.throws(
      () => StateStore.open(open, { ttlMs: 1, limits, maxCells: 1, maxBytes: 4096, log: () => {} }),
      /writable by group or others/,
    );
  });

  it('keeps a session whose id carries an instance prefix (--instance-id)', async () => {
    const { store, dir } = fresh();
    const prefixed = `py-3.${'D'.repeat(32)}`;
    await store.create(prefixed, 1, Date.now());
    await store.appendCell(prefixed, cell(1));
    assert.ok(readdirSync(dir).includes(prefixed));
    assert.equal((await store.load(prefixed))?.log.length, 1);
    assert.equal(await store.load(`..${'D'.repeat(32)}`), null);
  });

  it("keeps a session's tenant, and tells another tenant nothing of it, expired or not", async () => {
    const { store } = fresh({ ttlMs: 1000 });
    const id = 'E'.repeat(32);
    await store.create(id, 1, Date.now(), 'alice');
    assert.equal((await store.load(id))?.owner, 'alice');
    assert.equal(await store.has(id, Date.now(), 'bob'), 'no');
    assert.equal(await store.has(id, Date.now(), 'alice'), 'yes');
    assert.equal(await store.has(id, Date.now(), null), 'yes', 'stdio and the library are not tenants');
    assert.equal(await store.has(id, Date.now() + 5000, 'bob'), 'no', 'not "expired": that would say it exists');
    assert.equal(await store.has(id, Date.now() + 5000, 'alice'), 'expired');
    const plain = 'F'.repeat(32);
    await store.create(plain, 1, Date.now());
    assert.equal((await store.load(plain))?.owner, null);
    assert.equal(await store.has(plain, Date.now(), 'bob'), 'yes', 'saved without a tenant: the id alone restores it');
  });

  it('round-trips files and cells, and never treats a non-id as a path', async () => {
    const { store, dir } = fresh();
    await store.create(ID, 1, Date.now());
    await store.applyFiles(ID, [{ path: 'a/b.txt', data: Buffer.from('hello') }], []);
    await store.applyFiles(ID, [{ path: 'c.txt', data: Buffer.from('c') }], []);
    await store.applyFiles(ID, [], ['c.txt']);
    await store.appendCell(ID, cell(1));
    await store.appendCell(ID, cell(2, false));
    const loaded = await store.load(ID);
    assert.deepEqual(
      loaded?.files.map((f) => [f.path, Buffer.from(f.data).toString()]),
      [['a/b.txt', 'hello']],
    );
    assert.deepEqual(
      loaded?.log.map((c) => [c.executionCount, c.completed]),
      [
        [1, true],
        [2, false],
      ],
    );
    assert.equal(readdirSync(join(dir, ID, 'blobs')).length, 1);
    for (const bad of ['../' + ID.slice(3), '..', ID + '/x', 'a'.repeat(31)]) {
      assert.equal(await store.has(bad), 'no');
      assert.equal(await store.load(bad), null);
    }
    assert.deepEqual(
      (await store.list(new Set())).map((s) => [s.id, s.cells]),
      [[ID, 2]],
    );
    assert.deepEqual(await store.list(new Set([ID])), []);
    await store.remove(ID);
    assert.equal(await store.has(ID), 'no');
  });

  it('reports a torn last line and keeps the log within the history bound', async () => {
    const { store, dir } = fresh({ maxCells: 5 });
    await store.create(ID, 1, Date.now());
    for (let i = 1; i <= 60; i++) await store.appendCell(ID, cell(i));
    appendFileSync(join(dir, ID, 'cells.jsonl'), '{"cell": {"source": {"co');
    const loaded = await store.load(ID);
    assert.deepEqual(
      loaded?.log.map((c) => c.executionCount),
      [56, 57, 58, 59, 60],
    );
    assert.equal(loaded?.dropped, 55);
    assert.deepEqual(loaded?.unread, ['1 line: torn at the end of the log (a crash while it was written)']);
    // The next append ends the torn line first: only the torn cell is lost, not the new one with it.
    await store.appendCell(ID, cell(61));
    const next = await store.load(ID);
    assert.deepEqual(next?.log.map((c) => c.executionCount).slice(-2), [60, 61]);
    assert.deepEqual(next?.unread, ['1 line: not JSON (torn by a crash, or corrupt)']);
    await store.clearCells(ID);
    assert.deepEqual((await store.load(ID))?.log, []);
  });

  it('bounds the log by bytes too: compacted past twice the bound, the newest cells kept, the dropped counted', async () => {
    const { store, dir } = fresh({ maxCells: 1000, maxBytes: 8192 });
    await store.create(ID, 1, Date.now());
    const big = (i: number): LoggedCell => ({ ...cell(i), source: { code: `x = ${i}  # ${'y'.repeat(1000)}` } });
    for (let i = 1; i <= 100; i++) {
      await store.appendCell(ID, big(i));
      assert.ok(statSync(join(dir, ID, 'cells.jsonl')).size <= 2 * 8192 + 1100, `after cell ${i}`);
    }
    const loaded = await store.load(ID);
    const kept = loaded!.log.map((c) => c.executionCount);
    assert.equal(kept.at(-1), 100);
    assert.ok(kept.length >= 6 && kept.length <= 8, JSON.stringify(kept));
    assert.equal(loaded!.dropped + kept.length, 100);
    assert.deepEqual(loaded!.unread, []);
  });

  it('reads a log far over the bounds (an older version, lowered flags) a chunk at a time and reports what it left out', async () => {
    const { store, dir } = fresh({ maxCells: 1000, maxBytes: 64 * 1024 });
    await store.create(ID, 1, Date.now());
    // 3 MB written by hand, as a version without a byte bound left it; a control character is 6 bytes in JSON.
    const line = (i: number) => JSON.stringify({ cell: { ...cell(i), source: { code: `x = ${i}  # ${'\u0001'.repeat(5000)}` } } });
    const lines = Array.from({ length: 100 }, (_, i) => line(i + 1));
    lines.splice(50, 0, '{"cell": {"source"');
    writeFileSync(join(dir, ID, 'cells.jsonl'), lines.join('\n') + '\n', { mode: 0o600 });
    const loaded = await store.load(ID);
    const kept = loaded!.log.map((c) => c.executionCount);
    assert.equal(kept.at(-1), 100);
    assert.ok(kept.length > 0 && kept.length < 10, JSON.stringify(kept));
    assert.equal(loaded!.dropped, 100 - kept.length, 'every cell is either kept or counted as dropped');
    assert.deepEqual(loaded!.unread, ['1 line: not JSON (torn by a crash, or corrupt)']);
    // A compaction keeps the count and the reason for a later restore.
    await store.appendCell(ID, cell(101));
    const after = await store.load(ID);
    assert.equal(after!.log.at(-1)?.executionCount, 101);
    assert.equal(after!.dropped + after!.log.length, 101);
    assert.deepEqual(after!.unread, ['1 line: not JSON (torn by a crash, or corrupt)']);
  });

  it('says when the log cannot be read at all', async () => {
    const { store, dir } = fresh();
    await store.create(ID, 1, Date.now());
    await store.appendCell(ID, cell(1));
    rmSync(join(dir, ID, 'cells.jsonl'));
    writeFileSync(join(root, 'elsewhere.jsonl'), JSON.stringify({ cell: cell(9) }) + '\n');
    symlinkSync(join(root, 'elsewhere.jsonl'), join(dir, ID, 'cells.jsonl'));
    const loaded = await store.load(ID);
    assert.deepEqual(loaded?.log, []);
    assert.deepEqual(loaded?.unread, ['cells.jsonl could not be opened (a symbolic link)']);
  });

  it('keeps files named like Object.prototype members (__proto__, constructor)', async () => {
    const { store } = fresh();
    await store.create(ID, 1, Date.now());
    await store.applyFiles(ID, [{ path: '__proto__', data: Buffer.from('p') }], []);
    await store.applyFiles(ID, [{ path: 'constructor', data: Buffer.from('c') }], []);
    const reopened = StateStore.open(store.dir, { ttlMs: 60_000, limits, maxCells: 5, maxBytes: 2 ** 20, log: () => {} });
    const loaded = await reopened.load(ID);
    assert.deepEqual(loaded?.files.map((f) => [f.path, Buffer.from(f.data).toString()]).sort(), [
      ['__proto__', 'p'],
      ['constructor', 'c'],
    ]);
    await reopened.applyFiles(ID, [], ['__proto__']);
    assert.deepEqual(
      (await store.load(ID))?.files.map((f) => f.path),
      ['constructor'],
    );
  });

  it('reads back within the file limits, and follows no link', async () => {
    const { store, dir } = fresh();
    await store.create(ID, 1, Date.now());
    await store.applyFiles(
      ID,
      ['1', '2'].map((name) => ({ path: name, data: Buffer.alloc(60) })),
      [],
    );
    await store.applyFiles(ID, [{ path: '3', data: Buffer.alloc(60) }], []);
    const loaded = await store.load(ID);
    assert.deepEqual(
      loaded?.files.map((f) => f.path),
      ['1', '2'],
    );
    assert.deepEqual(loaded?.skippedFiles, ['3']);
    // A session directory that is a link is not a session.
    symlinkSync(join(dir, ID), join(dir, OTHER));
    assert.equal(await store.has(OTHER), 'no');
    // A blob replaced by a link is not read.
    const blob = readdirSync(join(dir, ID, 'blobs'))[0]!;
    rmSync(join(dir, ID, 'blobs', blob));
    writeFileSync(join(root, 'secret'), 'secret');
    symlinkSync(join(root, 'secret'), join(dir, ID, 'blobs', blob));
    const again = await store.load(ID);
    assert.equal(again?.skippedFiles.length, 1);
    assert.ok(again?.files.every((f) => Buffer.from(f.data).toString() !== 'secret'));
  });

  it('deletes sessions past the TTL since their last use', async () => {
    const { store, dir } = fresh({ ttlMs: 1000 });
    await store.create(ID, 0, Date.now() - 5000);
    await store.create(OTHER, 0, Date.now());
    assert.equal(await store.has(ID), 'expired');
    await store.touch(OTHER, 0, Date.now() - 5000);
    await store.sweep(new Set());
    assert.deepEqual(
      readdirSync(dir).filter((name) => !name.startsWith('.')),
      [],
    );
  });
});
