/**
 * The server's metadata view of a session's files (src/sessions/file-index.ts) and the supervisor's copy of their
 * contents (src/sessions/file-store.ts): listing, sizes, and the file limits checked on every change set.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SessionFileIndex } from '../../src/sessions/file-index.js';
import { QuotaViolation, SessionFileStore } from '../../src/sessions/file-store.js';
const limits = { maxFileBytes: 100, maxSessionBytes: 150, maxFiles: 3 };
describe('file index (server side, metadata only)', () => {
    it('lists files and the directories derived from their paths', () => {
        const index = new SessionFileIndex('S', limits);
        const refs = index.apply({
            written: [
                { path: 'a/b/c.txt', size: 3, mtimeMs: 1 },
                { path: 'd.png', size: 5, mtimeMs: 2 },
            ],
            deleted: [],
        });
        assert.deepEqual(refs.map((r) => [r.path, r.mime_type, r.uri]), [
            ['a/b/c.txt', 'text/plain', 'session://S/a/b/c.txt'],
            ['d.png', 'image/png', 'session://S/d.png'],
        ]);
        assert.deepEqual(index.list('', true).map((e) => `${e.type} ${e.path}`), ['directory a', 'directory a/b', 'file a/b/c.txt', 'file d.png']);
        assert.deepEqual(index.list('', false).map((e) => e.path), ['a', 'd.png']);
        assert.equal(index.sizeOf('d.png'), 5);
        assert.throws(() => index.sizeOf('a'), /NOT_A_FILE|directory/);
        assert.throws(() => index.list('nope', true), /does not exist/);
        index.apply({ written: [], deleted: ['a/b/c.txt'] });
        assert.deepEqual(index.list('', true).map((e) => e.path), ['d.png'], 'directories left empty disappear');
    });
    it('treats a change set over the limits as a breach', () => {
        const index = new SessionFileIndex('S', limits);
        assert.throws(() => index.apply({ written: [{ path: 'big', size: 101, mtimeMs: 0 }], deleted: [] }), /QUOTA|--max-file-bytes/);
        const many = new SessionFileIndex('S', limits);
        assert.throws(() => many.apply({ written: ['a', 'b', 'c', 'd'].map((path) => ({ path, size: 1, mtimeMs: 0 })), deleted: [] }), /--max-files/);
        const total = new SessionFileIndex('S', limits);
        assert.throws(() => total.apply({
            written: [
                { path: 'a', size: 80, mtimeMs: 0 },
                { path: 'b', size: 80, mtimeMs: 0 },
            ],
            deleted: [],
        }), /--max-session-bytes/);
    });
});
describe('file store (supervisor side, contents)', () => {
    it('stores change sets, reads pages, and passes metadata on with sizes it measured', () => {
        const store = new SessionFileStore(limits);
        const out = store.apply({ written: [{ path: 'x.bin', size: 999, mtimeMs: 5, data: new Uint8Array([1, 2, 3, 4]) }], deleted: [] });
        assert.deepEqual(out, { written: [{ path: 'x.bin', size: 4, mtimeMs: 5 }], deleted: [] });
        const page = store.read('x.bin', 1, 2);
        assert.deepEqual([...page.data], [2, 3]);
        assert.equal(page.size, 4);
        assert.throws(() => store.read('missing', 0, 1));
    });
    it('refuses a change set over the limits and keeps what it had', () => {
        const store = new SessionFileStore(limits);
        store.apply({ written: [{ path: 'keep', size: 10, mtimeMs: 0, data: new Uint8Array(10) }], deleted: [] });
        assert.throws(() => store.apply({ written: [{ path: 'huge', size: 1, mtimeMs: 0, data: new Uint8Array(101) }], deleted: [] }), QuotaViolation);
        assert.throws(() => store.apply({ written: [], deleted: [], violation: 'the worker saw 2 GB' }), /2 GB/);
        assert.equal(store.read('keep', 0, 100).size, 10);
        assert.throws(() => store.read('huge', 0, 1));
    });
});
