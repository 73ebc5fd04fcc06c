/**
 * User code runs only inside its cell, and the file quota holds at all times, over the real server:
 *  A. writes from JavaScript timers, asyncio callbacks and events scheduled by a cell cannot run after it (they are
 *     cancelled, or refused), and those that run inside it meet the quota;
 *  B. a file grown by writing a MEMFS node directly (bypassing the FS write hooks) ends the session with a reason
 *     naming the limit, and its bytes never reach the host;
 *  C. deep recursion gives a RecursionError (sys.setrecursionlimit is capped), and when the JavaScript stack
 *     overflows anyway the session ends as SESSION_DEAD with the reason, on both runtimes.
 * Every time the server answers and a bystander session keeps its variables; legitimate asyncio and writes work.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { textOf } from '../helpers.js';
import { assertPythonError, startProbeServer } from './probe.js';
const MB = 1024 * 1024;
const LIMITS = ['--max-file-bytes', String(50 * MB), '--max-session-bytes', String(200 * MB), '--max-files', '1000'];
const idle = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Files the host knows of in a session (list_files), as path → size. */
async function hostFiles(p, session) {
    const { entries } = await p.h.ok('list_files', { session_id: session });
    return new Map(entries.filter((e) => e.type === 'file').map((e) => [e.path, e.size]));
}
const SETUP = 'import js, os, asyncio\nfrom pyodide.ffi import create_proxy\n';
const WRITE_BIG = 'def big(*args):\n    with open("/workspace/big.bin", "wb") as f:\n        f.write(b"x" * (60 * 1024 * 1024))\n';
describe('cell scope and file quota (modern runtime)', () => {
    let p;
    before(async () => {
        p = await startProbeServer(['--preload', 'none', ...LIMITS]);
    });
    after(() => p.close());
    it('A: a timer, an asyncio callback or an event set up by a cell never writes after it', async () => {
        const s = await p.newSession();
        await p.run(s, SETUP + WRITE_BIG);
        // The reviewer's attack was js.setTimeout(create_proxy(f), 10): the cell ends before it fires. 500 ms here, so
        // that a slow machine cannot let it fire inside the cell (where the quota would refuse it anyway).
        const timer = await p.run(s, 'js.setTimeout(create_proxy(big), 500)\n"scheduled"');
        assert.equal(timer.success, true);
        assert.match(timer.stderr, /1 JavaScript timer\(s\) of this cell had not fired when it ended and were cancelled/);
        // Pyodide's asyncio loop schedules through setTimeout/setImmediate too; no task waits for this handle.
        await p.run(s, 'asyncio.get_event_loop().call_later(0.5, big)');
        // An event fired by a built-in timer (not one of the wrapped globals): refused at the entry into Python.
        await p.run(s, 'js.AbortSignal.timeout(500).addEventListener("abort", create_proxy(big))');
        await idle(800); // the worker is idle and all three are due: none may run now
        assert.equal((await p.run(s, 'os.listdir("/workspace")')).result, '[]');
        assert.equal((await hostFiles(p, s)).size, 0);
        await p.assertUnharmed();
    });
    it('A: callbacks that run inside the cell meet the quota (size and file count)', async () => {
        const s = await p.newSession();
        await p.run(s, SETUP + WRITE_BIG);
        const now = await p.run(s, 'js.setTimeout(create_proxy(big), 0)\n"done"');
        assert.equal(now.result, "'done'");
        assert.match(now.stderr, /OSError: \[Errno \d+\] File too large/);
        assert.match(now.stderr, /exception in a JavaScript callback of this cell: OSError/);
        const many = await p.run(s, 'def many():\n    for i in range(3000):\n        with open("/workspace/f%d" % i, "w") as f:\n            f.write("x")\njs.setTimeout(create_proxy(many), 0)');
        assert.match(many.stderr, /Quota exceeded/);
        // open() created big.bin before its write failed: it counts as one of the 1000 files, with 0 bytes.
        assert.equal((await p.run(s, 'len(os.listdir("/workspace")), os.path.getsize("/workspace/big.bin")')).result, '(1000, 0)');
        const files = await hostFiles(p, s);
        assert.equal(files.size, 1000);
        assert.equal(files.get('big.bin'), 0);
        await p.assertUnharmed();
    });
    it('A: legitimate asyncio and JavaScript callbacks run inside the cell; writes within the quota work', async () => {
        const s = await p.newSession();
        await p.run(s, SETUP);
        const awaited = await p.run(s, 'await asyncio.sleep(0.01)\n"slept"');
        assert.equal(awaited.result, "'slept'");
        const gathered = await p.run(s, 'async def job(x):\n    await asyncio.sleep(0.02)\n    print("job", x)\n    return x * 2\nawait asyncio.gather(job(1), job(2))');
        assert.equal(gathered.result, '[2, 4]');
        assert.equal(gathered.stdout, 'job 1\njob 2\n');
        // A task started without await (this worked before, finishing between cells) now finishes inside its cell.
        await p.run(s, 't = asyncio.ensure_future(job(3))');
        assert.equal((await p.run(s, 't.done(), t.result()')).result, '(True, 6)');
        assert.equal((await p.run(s, 'await js.Promise.resolve(7)')).result, '7');
        const timers = await p.run(s, 'js.setTimeout(create_proxy(lambda: print("timer")), 0)\njs.queueMicrotask(create_proxy(lambda: print("microtask")))\n1');
        assert.equal(timers.stdout, 'microtask\ntimer\n');
        const wrote = await p.run(s, 'with open("data.bin", "wb") as f:\n    f.write(b"y" * (5 * 1024 * 1024))\nos.path.getsize("data.bin")');
        assert.equal(wrote.result, String(5 * MB));
        assert.equal((await hostFiles(p, s)).get('data.bin'), 5 * MB);
        // A task that never ends keeps its cell until the time limit, then the session carries on.
        const forever = await p.run(s, 'async def spin():\n    while True:\n        await asyncio.sleep(0.05)\nasyncio.ensure_future(spin())', 2);
        assertPythonError(forever, 'TimeoutError', /2 s time limit/);
        // (Unless the interrupt landed inside the task itself, which then ended with it.)
        if (!/had not finished/.test(forever.stderr))
            assert.doesNotMatch(forever.stderr, /exception in a JavaScript callback/);
        assert.equal((await p.run(s, 'os.path.getsize("data.bin")')).result, String(5 * MB));
        await p.assertUnharmed();
    });
    it('B: a MEMFS node grown directly ends the session with the per-file limit as the reason; nothing reaches the host', async () => {
        const s = await p.newSession();
        const r = await p.attempt(s, SETUP +
            'import pyodide_js\nopen("/workspace/small.txt", "w").write("hi")\n' +
            'node = pyodide_js.FS.lookupPath("/workspace/small.txt").node\n' +
            'node.contents = js.Uint8Array.new(100 * 1024 * 1024)\nnode.usedBytes = 100 * 1024 * 1024');
        assert.ok(!('toolError' in r), 'the call itself answers');
        assert.equal(r.error?.type, 'WorkerTerminated');
        assert.match(r.error.message, /small\.txt holds 104857600 bytes, over the limit of 52428800 bytes per file \(--max-file-bytes\)/);
        const later = await p.h.call('execute_code', { session_id: s, code: '1' });
        assert.match(textOf(later), /SESSION_DEAD: .*over the limit of 52428800 bytes per file/);
        assert.equal((await p.h.call('list_files', { session_id: s })).isError, true, 'the session and its files are gone');
        await p.assertUnharmed();
    });
    it('B: files made directly (past the file count) and bytes past the session total end the session too', async () => {
        const count = await p.newSession();
        const r1 = await p.run(count, SETUP +
            'import pyodide_js\nmemfs = pyodide_js.FS.filesystems.MEMFS\nroot = pyodide_js.FS.lookupPath("/workspace").node\n' +
            'for i in range(1100):\n    memfs.createNode(root, "n%d" % i, 0o100644, 0)');
        assert.equal(r1.error?.type, 'WorkerTerminated');
        assert.match(r1.error.message, /more than 1000 files, the limit per session \(--max-files\)/);
        const total = await p.newSession();
        const r2 = await p.run(total, SETUP +
            'import pyodide_js\nfor i in range(5):\n    open("/workspace/p%d" % i, "w").write("x")\n' +
            '    node = pyodide_js.FS.lookupPath("/workspace/p%d" % i).node\n' +
            '    node.contents = js.Uint8Array.new(45 * 1024 * 1024)\n    node.usedBytes = 45 * 1024 * 1024');
        assert.equal(r2.error?.type, 'WorkerTerminated');
        assert.match(r2.error.message, /more than 209715200 bytes in all, the limit per session \(--max-session-bytes\)/);
        await p.assertUnharmed();
    });
    it('C: a raised recursion limit is capped: RecursionError, and the session lives on', async () => {
        const s = await p.newSession();
        await p.run(s, 'x = "kept"');
        const r = await p.run(s, 'import sys; sys.setrecursionlimit(10**6)\ndef f(n): return f(n+1)\nf(0)');
        assertPythonError(r, 'RecursionError', /maximum recursion depth exceeded/);
        assert.match(r.stderr, /sys\.setrecursionlimit\(1000000\) was lowered to 1000/);
        assert.equal((await p.run(s, 'sys.getrecursionlimit(), x')).result, "(1000, 'kept')");
        assert.equal((await p.run(s, 'sys.setrecursionlimit(500); sys.getrecursionlimit()')).result, '500', 'lowering is untouched');
        await p.assertUnharmed();
    });
    it('C: a JavaScript stack overflow (C recursion on deeply nested data) ends the session as SESSION_DEAD with the reason', async () => {
        const s = await p.newSession();
        const r = await p.run(s, 'x = []\nfor i in range(200000):\n    x = [x]\nlen(repr(x))');
        assert.equal(r.error?.type, 'WorkerTerminated');
        assert.match(r.error.message, /overflowed the JavaScript stack/);
        const later = await p.h.call('execute_code', { session_id: s, code: '1' });
        assert.match(textOf(later), /SESSION_DEAD: .*overflowed the JavaScript stack/);
        await p.assertUnharmed();
    });
});
describe('cell scope and recursion (legacy runtime)', () => {
    let p;
    before(async () => {
        p = await startProbeServer(['--runtime', 'legacy', '--preload', 'none', ...LIMITS]);
    });
    after(() => p.close());
    it('A: a timer set up by a cell never writes after it; asyncio inside a cell works', async () => {
        const s = await p.newSession();
        await p.run(s, 'import js, os, asyncio\nfrom pyodide import create_proxy\n' + WRITE_BIG);
        // 500 ms, so that a slow machine cannot let the timer fire inside the cell (see the modern runtime's test).
        await p.run(s, 'js.setTimeout(create_proxy(big), 500)');
        await idle(800);
        assert.equal((await p.run(s, 'os.listdir("/workspace")')).result, '[]');
        const gathered = await p.run(s, 'async def job(x):\n    await asyncio.sleep(0.02)\n    return x * 2\nawait asyncio.gather(job(1), job(2))');
        assert.equal(gathered.result, '[2, 4]');
        await p.assertUnharmed();
    });
    it('C: RecursionError at the capped limit; past the cap the stack overflow ends the session with the reason', async () => {
        const s = await p.newSession();
        const r = await p.run(s, 'import sys; sys.setrecursionlimit(10**6)\ndef f(n): return f(n+1)\nf(0)');
        assertPythonError(r, 'RecursionError', /maximum recursion depth exceeded/);
        assert.equal((await p.run(s, 'class G:\n    def __getattr__(self, k):\n        return self.y\nG().x')).error?.type, 'RecursionError');
        assert.equal((await p.run(s, '1 + 1')).result, '2');
        // Deliberately past the cap (the original setrecursionlimit, from the wrapper's closure): Pyodide 0.17 is
        // fatally broken by the overflow; the worker reports it instead of answering WORKER_ERROR forever.
        const broken = await p.run(s, 'sys.setrecursionlimit.__closure__[0].cell_contents(10**6)\nf(0)');
        assert.equal(broken.error?.type, 'WorkerTerminated');
        assert.match(broken.error.message, /overflowed the JavaScript stack/);
        assert.match(textOf(await p.h.call('execute_code', { session_id: s, code: '1' })), /SESSION_DEAD: .*overflowed the JavaScript stack/);
        await p.assertUnharmed();
    });
});
