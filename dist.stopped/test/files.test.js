/** Path confinement and host-path rules: pure functions plus real temp directories (for realpath). */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseConfig } from '../src/server/config.js';
import { checkHostPath, isInside, mimeType, readHostFile, sensitiveReason, sessionPath, sessionUri, writeHostFile, } from '../src/sandbox/host-paths.js';
describe('sessionPath', () => {
    it('normalises paths inside the workspace', () => {
        assert.equal(sessionPath('a.txt'), 'a.txt');
        assert.equal(sessionPath('./data//x.csv'), 'data/x.csv');
        assert.equal(sessionPath('data/../b.txt'), 'b.txt');
        assert.equal(sessionPath('/workspace/fig.png'), 'fig.png');
        assert.equal(sessionPath('/workspace'), '');
        assert.equal(sessionPath(''), '');
        assert.equal(sessionPath('dir/'), 'dir');
    });
    it('refuses escapes with a reason', () => {
        assert.throws(() => sessionPath('../x'), /PATH_DENIED|climbs out/);
        assert.throws(() => sessionPath('a/../../x'), /climbs out/);
        assert.throws(() => sessionPath('/etc/passwd'), /outside the session workspace/);
        assert.throws(() => sessionPath('/workspace2/x'), /outside the session workspace/, 'prefix attack');
        assert.throws(() => sessionPath('a\0b'), /NUL/);
        assert.throws(() => sessionPath('a\\..\\b'), /backslash/);
    });
    it('builds URIs with encoded segments and knows MIME types', () => {
        assert.equal(sessionUri('abc', 'my dir/fig 1.png'), 'session://abc/my%20dir/fig%201.png');
        assert.equal(mimeType('x.png'), 'image/png');
        assert.equal(mimeType('x.csv'), 'text/csv');
        assert.equal(mimeType('x.py'), 'text/x-python');
        assert.equal(mimeType('x.unknownext'), 'application/octet-stream');
    });
});
describe('host paths', () => {
    const root = mkdtempSync(join(tmpdir(), 'hostpaths-'));
    const allowed = join(root, 'data');
    const sibling = join(root, 'data2');
    mkdirSync(allowed);
    mkdirSync(sibling);
    writeFileSync(join(allowed, 'ok.csv'), 'a,b\n');
    writeFileSync(join(sibling, 'other.csv'), 'x');
    writeFileSync(join(allowed, '.env'), 'SECRET=1');
    symlinkSync(join(sibling, 'other.csv'), join(allowed, 'link.csv'));
    const access = { allowDirs: [allowed], allowAll: false };
    it('allows files inside an allowed directory', () => {
        assert.equal(checkHostPath(join(allowed, 'ok.csv'), access, 'read'), join(allowed, 'ok.csv'));
        assert.equal(checkHostPath(join(allowed, 'new.csv'), access, 'write'), join(allowed, 'new.csv'));
    });
    it('refuses prefix tricks, symlinks out, traversal, missing files', () => {
        assert.throws(() => checkHostPath(join(sibling, 'other.csv'), access, 'read'), /not inside an allowed directory/);
        assert.throws(() => checkHostPath(join(allowed, 'link.csv'), access, 'read'), /not inside an allowed directory/, 'symlink resolved first');
        assert.throws(() => checkHostPath(join(allowed, '..', 'data2', 'other.csv'), access, 'read'), /not inside/);
        assert.throws(() => checkHostPath(join(allowed, 'missing.csv'), access, 'read'), /does not exist/);
        assert.throws(() => checkHostPath(join(root, 'nodir', 'x.csv'), access, 'write'), /directory does not exist/);
        assert.equal(isInside(join(sibling, 'x'), allowed), false);
    });
    it('refuses credential files even with --allow-all-dirs', () => {
        assert.throws(() => checkHostPath(join(allowed, '.env'), { allowDirs: [], allowAll: true }, 'read'), /credential/);
        for (const path of [
            '/home/u/.ssh/id_rsa',
            '/home/u/.aws/credentials',
            '/home/u/.docker/config.json',
            '/p/.env.local',
            '/p/.npmrc',
            '/p/.netrc',
            '/p/.pypirc',
            '/p/.git-credentials',
            '/p/api_token.txt',
            '/p/server.pem',
            '/p/credentials.json',
            '/home/u/.gnupg/x',
        ]) {
            assert.ok(sensitiveReason(path), path);
        }
        for (const path of ['/p/data.csv', '/p/environment.yml', '/p/tokenizer.py', '/p/report.pdf'])
            assert.equal(sensitiveReason(path), null, path);
    });
});
describe('host file access', () => {
    const root = mkdtempSync(join(tmpdir(), 'hostio-'));
    const allowed = join(root, 'data');
    mkdirSync(allowed);
    writeFileSync(join(allowed, 'ok.csv'), 'a,b\n1,2\n');
    const access = { allowDirs: [allowed], allowAll: false };
    const everywhere = { allowDirs: [], allowAll: true };
    const config = (argv) => parseConfig(argv, {}, root).config;
    it('is off unless --allow-dir names a directory (the working directory is not a default)', () => {
        assert.deepEqual(config([]).allowDirs, []);
        const off = { allowDirs: config([]).allowDirs, allowAll: false };
        for (const [path, purpose] of [
            [join(allowed, 'ok.csv'), 'read'],
            [join(root, 'x.csv'), 'write'],
            ['/etc/hostname', 'read'],
        ]) {
            assert.throws(() => checkHostPath(path, off, purpose), (e) => e.code === 'PATH_DENIED' && /^Host file access is off: .*--allow-dir <dir>/.test(e.message), path);
        }
        // Relative --allow-dir values are resolved against the working directory; the legitimate use still works.
        assert.deepEqual(config(['--allow-dir', 'data']).allowDirs, [allowed]);
        assert.equal(checkHostPath(join(allowed, 'ok.csv'), { allowDirs: config(['--allow-dir', 'data']).allowDirs, allowAll: false }, 'read'), join(allowed, 'ok.csv'));
    });
    it('refuses /proc, /sys and /dev even with --allow-all-dirs, and still allows ordinary files', () => {
        for (const path of [
            '/proc/self/environ',
            '/proc/self/cmdline',
            '/proc/1/environ',
            '/sys/kernel/uevent_seqnum',
            '/dev/stdin',
            '/dev/null',
            '/dev/zero',
        ]) {
            assert.throws(() => checkHostPath(path, everywhere, 'read'), /is under \/(proc|sys|dev), .*even with --allow-all-dirs/, path);
        }
        for (const path of ['/dev/null', '/proc/self/oom_score_adj', '/dev/shm/x.txt']) {
            assert.throws(() => checkHostPath(path, everywhere, 'write'), /is under \/(proc|dev)/, path);
        }
        assert.equal(checkHostPath(join(allowed, 'ok.csv'), everywhere, 'read'), join(allowed, 'ok.csv'));
        // A symlink into /proc is resolved first.
        symlinkSync('/proc/self/environ', join(allowed, 'environ.txt'));
        assert.throws(() => checkHostPath(join(allowed, 'environ.txt'), everywhere, 'read'), /is under \/proc/);
    });
    it('reads only regular files, from the handle it checked', async () => {
        assert.equal(Buffer.from(await readHostFile(checkHostPath(join(allowed, 'ok.csv'), access, 'read'), 1000)).toString(), 'a,b\n1,2\n');
        await assert.rejects(readHostFile(checkHostPath(join(allowed, 'ok.csv'), access, 'read'), 5), (e) => e.code === 'QUOTA_EXCEEDED' && /per-file limit of 5/.test(e.message));
        mkdirSync(join(allowed, 'adir'));
        await assert.rejects(readHostFile(checkHostPath(join(allowed, 'adir'), access, 'read'), 1000), (e) => e.code === 'NOT_A_FILE');
        // A FIFO is refused at once (O_NONBLOCK), not waited on.
        execFileSync('mkfifo', [join(allowed, 'pipe')]);
        await assert.rejects(readHostFile(checkHostPath(join(allowed, 'pipe'), access, 'read'), 1000), (e) => e.code === 'NOT_A_FILE');
    });
    it('a file swapped after the check is not read: a symlink, or a directory turned into a link to /proc', async () => {
        writeFileSync(join(allowed, 'swap.txt'), 'harmless');
        const real = checkHostPath(join(allowed, 'swap.txt'), access, 'read');
        unlinkSync(real);
        symlinkSync('/proc/self/environ', real);
        await assert.rejects(readHostFile(real, 1 << 20), (e) => e.code === 'PATH_DENIED' && /symlink/.test(e.message));
        mkdirSync(join(allowed, 'self'));
        writeFileSync(join(allowed, 'self', 'environ'), 'harmless');
        const inDir = checkHostPath(join(allowed, 'self', 'environ'), access, 'read');
        renameSync(join(allowed, 'self'), join(allowed, 'self-moved'));
        symlinkSync('/proc/self', join(allowed, 'self'));
        await assert.rejects(readHostFile(inDir, 1 << 20), (e) => e.code === 'PATH_DENIED' && /changed while it was being opened/.test(e.message));
    });
    it('writes create or replace regular files only, never through a symlink', async () => {
        const target = checkHostPath(join(allowed, 'out.txt'), access, 'write');
        await writeHostFile(target, Buffer.from('first'), false);
        assert.equal(readFileSync(target, 'utf8'), 'first');
        await assert.rejects(writeHostFile(target, Buffer.from('second'), false), (e) => e.code === 'FILE_EXISTS');
        await writeHostFile(target, Buffer.from('2nd'), true);
        assert.equal(readFileSync(target, 'utf8'), '2nd', 'replaced and truncated');
        writeFileSync(join(root, 'victim.txt'), 'keep me');
        symlinkSync(join(root, 'victim.txt'), join(allowed, 'link.txt'));
        const link = checkHostPath(join(allowed, 'link.txt'), access, 'write');
        await assert.rejects(writeHostFile(link, Buffer.from('overwritten'), true), (e) => e.code === 'PATH_DENIED' && /symlink/.test(e.message));
        assert.equal(readFileSync(join(root, 'victim.txt'), 'utf8'), 'keep me');
        assert.ok(lstatSync(join(allowed, 'link.txt')).isSymbolicLink());
        execFileSync('mkfifo', [join(allowed, 'wpipe')]);
        const fifo = checkHostPath(join(allowed, 'wpipe'), access, 'write');
        await assert.rejects(writeHostFile(fifo, Buffer.from('x'), true), (e) => e.code === 'NOT_A_FILE');
    });
});
