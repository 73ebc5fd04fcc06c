/** The pure half of src/sandbox/host-paths.ts: session paths confined to the workspace, and session:// URIs. */
import assert from 'node:assert/strict';
import { posix } from 'node:path';
import { describe, it } from 'node:test';
import { WORKSPACE } from '../../src/contract.js';
import { PyodideMcpError } from '../../src/errors.js';
import { sessionPath, sessionUri } from '../../src/sandbox/host-paths.js';
/** Asserts that sessionPath refuses `input` with PATH_DENIED, quoting the input and giving the broken rule. */
function denied(input, rule) {
    assert.throws(() => sessionPath(input), (error) => {
        assert.ok(error instanceof PyodideMcpError, `expected a PyodideMcpError for ${JSON.stringify(input)}`);
        assert.equal(error.code, 'PATH_DENIED');
        assert.ok(error.message.startsWith(`Path ${JSON.stringify(input)} `), error.message);
        assert.match(error.message, rule);
        assert.match(error.message, /nothing was changed/);
        return true;
    }, JSON.stringify(input));
}
/** Where a caller puts the file: WORKSPACE + '/' + rel, as the worker and the file view do. */
const placed = (rel) => posix.normalize(rel === '' ? WORKSPACE : `${WORKSPACE}/${rel}`);
describe('sessionPath', () => {
    it('keeps relative paths, normalised', () => {
        const cases = [
            ['a.txt', 'a.txt'],
            ['data/x.csv', 'data/x.csv'],
            ['./data//x.csv', 'data/x.csv'],
            ['a/./b', 'a/b'],
            ['a/b/../c', 'a/c'],
            ['my file.txt', 'my file.txt'],
            ['ü/€.txt', 'ü/€.txt'],
            ['.hidden', '.hidden'],
            ['...', '...'],
            ['..a', '..a'],
            ['a..b/c', 'a..b/c'],
            ['%2e%2e/x', '%2e%2e/x'],
        ];
        for (const [input, expected] of cases)
            assert.equal(sessionPath(input), expected, JSON.stringify(input));
    });
    it('gives "" for the workspace itself', () => {
        for (const input of ['', '   ', '.', '/workspace', '/workspace/', '/workspace///', '/workspace/.', 'a/..', 'a/b/../..']) {
            assert.equal(sessionPath(input), '', JSON.stringify(input));
        }
    });
    it('turns absolute paths inside the workspace into relative ones', () => {
        assert.equal(sessionPath(`${WORKSPACE}/fig.png`), 'fig.png');
        assert.equal(sessionPath('/workspace/a/b/'), 'a/b');
        assert.equal(sessionPath('/workspace/./a'), 'a');
        assert.equal(sessionPath('/workspace/a/../b'), 'b');
    });
    it('drops trailing slashes', () => {
        assert.equal(sessionPath('dir/'), 'dir');
        assert.equal(sessionPath('dir///'), 'dir');
        assert.equal(sessionPath('a//b/'), 'a/b');
        assert.equal(sessionPath('a/b/./'), 'a/b');
    });
    it('refuses NUL bytes anywhere', () => {
        for (const input of ['a\0b', '\0', 'a.txt\0.png', '/workspace/\0', '../\0'])
            denied(input, /contains a NUL byte/);
    });
    it('refuses backslashes (no Windows separators, no escaped traversal)', () => {
        for (const input of ['a\\b', '..\\..\\etc\\passwd', 'C:\\x', '\\workspace\\a'])
            denied(input, /contains a backslash/);
    });
    it('refuses .. that climbs out of the workspace', () => {
        for (const input of [
            '..',
            '../',
            '../x',
            './../x',
            'a/../../x',
            'a/b/../../..',
            '/workspace/..',
            '/workspace/../etc/passwd',
            '/workspace/a/../../x',
        ]) {
            denied(input, /climbs out of the session workspace with "\.\."/);
        }
    });
    it('refuses absolute paths outside the workspace, including prefix tricks', () => {
        for (const input of [
            '/',
            '/etc/passwd',
            '/workspace2',
            '/workspace2/x',
            '/workspacex/y',
            '/work',
            '/Workspace/a',
            '//workspace/a',
            '/tmp/../workspace/a',
        ]) {
            denied(input, new RegExp(`is outside the session workspace ${WORKSPACE}`));
        }
    });
    it('says in the refusal how to name a file instead', () => {
        assert.throws(() => sessionPath('../x'), /Use a path relative to the session workspace \(\/workspace\), e\.g\. "data\/input\.csv"\./);
    });
    it('never places an accepted path outside the workspace', () => {
        // Every path of up to four segments over these parts, relative and absolute.
        const parts = ['a', '.', '..', '', 'workspace', 'workspace2'];
        let inputs = [''];
        for (let depth = 0; depth < 4; depth++)
            inputs = inputs.flatMap((p) => parts.map((part) => (p === '' ? part : `${p}/${part}`)));
        let accepted = 0;
        for (const input of [...inputs, ...inputs.map((p) => `/${p}`)]) {
            let rel;
            try {
                rel = sessionPath(input);
            }
            catch (error) {
                assert.ok(error instanceof PyodideMcpError && error.code === 'PATH_DENIED', JSON.stringify(input));
                continue;
            }
            accepted++;
            const where = placed(rel);
            assert.ok(where === WORKSPACE || where.startsWith(`${WORKSPACE}/`), `${JSON.stringify(input)} → ${JSON.stringify(rel)} → ${where}`);
            assert.ok(!rel.split('/').includes('..'), JSON.stringify(input));
        }
        assert.ok(accepted > 100, `only ${accepted} accepted`);
    });
    // Found while writing these tests; sessionPath is owned elsewhere, so these wait for its fix.
    it('gives "" for "./" like it does for "."', () => {
        assert.equal(sessionPath('./'), '');
    });
    it('never returns an absolute path', () => {
        for (const input of ['/workspace//etc/passwd', '/workspace//a']) {
            const rel = sessionPath(input);
            assert.ok(!rel.startsWith('/'), `${JSON.stringify(input)} → ${JSON.stringify(rel)}`);
        }
    });
});
describe('sessionUri', () => {
    it('is session://<id>/<path> with each segment percent-encoded and the slashes kept', () => {
        assert.equal(sessionUri('abc', 'fig.png'), 'session://abc/fig.png');
        assert.equal(sessionUri('abc', 'my dir/fig 1.png'), 'session://abc/my%20dir/fig%201.png');
        assert.equal(sessionUri('abc', 'a#b?c%d&e=f.txt'), 'session://abc/a%23b%3Fc%25d%26e%3Df.txt');
        assert.equal(sessionUri('abc', 'ü/€.txt'), 'session://abc/%C3%BC/%E2%82%AC.txt');
        assert.equal(sessionUri('Xq3-_Z', 'a/b/c.csv'), 'session://Xq3-_Z/a/b/c.csv');
    });
    it('names the workspace itself with an empty path', () => {
        assert.equal(sessionUri('abc', ''), 'session://abc/');
    });
    it('encodes a literal %2e%2e so it never decodes to ..', () => {
        assert.equal(sessionUri('abc', '%2e%2e/x'), 'session://abc/%252e%252e/x');
    });
    it('round-trips through the decoding the resource handler does', () => {
        for (const rel of ['fig.png', 'my dir/fig 1.png', 'a#b?c%d.txt', 'ü/€.txt', '%2e%2e/x', 'a/b/c']) {
            const uri = sessionUri('abc', rel);
            const path = uri.slice('session://abc/'.length);
            assert.equal(sessionPath(path.split('/').map(decodeURIComponent).join('/')), rel, uri);
        }
    });
});
