/**
 * Resource abuse and a subverted worker, over the real server (modern runtime, --preload none): memory bombs,
 * threads, endless output, a flood of C-level writes, and a harness tampered with from Python so that the worker
 * sends malformed or oversized replies. The server and a bystander session must be unharmed every time.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertPythonError, startProbeServer } from './probe.js';
describe('sandbox: resources and a subverted worker (modern runtime)', () => {
    let p;
    before(async () => {
        p = await startProbeServer(['--preload', 'none', '--max-output-chars', '2000']);
    });
    after(() => p.close());
    it('memory bombs: MemoryError at the WebAssembly cap (default 1024 MB), the session lives on', async () => {
        const s = await p.newSession();
        await p.run(s, 'state = "still here"');
        // wasm32: sizes of 2**31 and more do not even fit an index.
        assertPythonError(await p.run(s, 'b = bytearray(3 * 1024**3)'), 'OverflowError', /cannot fit 'int' into an index-sized integer/);
        assertPythonError(await p.run(s, 'x = " " * 2**31'), 'OverflowError', /cannot fit 'int' into an index-sized integer/);
        // Below that, the cap (not the 4 GB wasm32 limit) is what stops it.
        assertPythonError(await p.run(s, 'b = bytearray(1536 * 1024**2)'), 'MemoryError', /^$/);
        assertPythonError(await p.run(s, 'x = " " * (2**31 - 1)'), 'MemoryError', /^$/);
        assertPythonError(await p.run(s, 'hog = []\nwhile True:\n    hog.append(bytearray(10**7))'), 'MemoryError', /^$/);
        const size = await p.run(s, 'del hog\nimport pyodide_js\npyodide_js._module.HEAP8.length <= 1024 * 1024**2');
        assert.equal(size.result, 'True', 'the wasm heap never grew past the cap');
        // A new WebAssembly memory above the cap cannot be made from JS either.
        const wasm = await p.run(s, 'import js\nfrom pyodide.ffi import to_js\njs.WebAssembly.Memory.new(to_js({"initial": 20000}, dict_converter=js.Object.fromEntries))');
        assertPythonError(wasm, 'JsException', /RangeError: WebAssembly\.Memory\(\): could not allocate memory/);
        // Legitimate large-ish allocations still work, and the state survived.
        assert.equal((await p.run(s, 'len(bytearray(200 * 1024**2)), state')).result, "(209715200, 'still here')");
        await p.assertUnharmed();
    });
    it('thread bomb: threading.Thread().start() fails cleanly', async () => {
        const s = await p.newSession();
        const r = await p.run(s, 'import threading\nfor _ in range(1000):\n    threading.Thread(target=lambda: None).start()');
        assertPythonError(r, 'RuntimeError', /can't start new thread/);
        await p.assertUnharmed();
    });
    it('endless printing: bounded output, stopped at the time limit', async () => {
        const s = await p.newSession();
        const r = await p.run(s, 'while True:\n    print("x" * 100)', 1);
        assertPythonError(r, 'TimeoutError', /1 s time limit/);
        assert.ok(r.stdout.length <= 2000, `stdout kept ${r.stdout.length} characters`);
        assert.equal((await p.run(s, 'print("after"); 1')).stdout, 'after\n');
        await p.assertUnharmed();
    });
    it('a flood of C-level writes (os.write to fd 1) reaches the server log rate-limited', async () => {
        const s = await p.newSession();
        const before = p.h.stderr().length;
        const r = await p.run(s, 'import os\nfor i in range(200_000):\n    os.write(1, b"flood-line\\n")');
        assert.equal(r.success, true);
        await new Promise((resolve) => setTimeout(resolve, 300));
        const grown = p.h.stderr().length - before;
        const lines = p.h.stderr().slice(before).split('flood-line').length - 1;
        assert.ok(lines < 5_000, `${lines} of 200000 flood lines reached the server log`);
        assert.ok(grown < 1_000_000, `server log grew by ${grown} bytes`);
        await p.assertUnharmed();
    });
    it('a harness tampered with from Python: a malformed reply ends that session, oversized fields are cut by the host', async () => {
        const malformed = await p.newSession();
        await p.run(malformed, 'import pyodide_mcp_harness as h\nh._session.run = lambda request: \'{"stdout": 5}\'');
        const r1 = await p.attempt(malformed, '1 + 1');
        assert.ok(!('toolError' in r1) && r1.success === false, 'a malformed reply is not passed on as a result');
        assert.match(r1.error.message, /The session sent an invalid execute reply \(stdout: .*\); it was ended/);
        const after1 = await p.attempt(malformed, '1');
        assert.ok('toolError' in after1 && /SESSION_DEAD: .*invalid execute reply/.test(after1.toolError), 'later calls are told why the session is gone');
        const oversized = await p.newSession();
        await p.run(oversized, 'import json, pyodide_mcp_harness as h\n' +
            'h._session.run = lambda request: json.dumps({"stdout": "x" * 5_000_000, "stderr": "", "result": None, "error": None, "execution_count": 1, "truncated": None, "display": []})');
        const r2 = await p.run(oversized, '1 + 1');
        assert.equal(r2.stdout.length, 2000, 'the host cut stdout to --max-output-chars');
        assert.equal(r2.truncated.stdout, 5_000_000 - 2000);
        const giant = await p.newSession();
        await p.run(giant, 'import json, pyodide_mcp_harness as h\n' +
            'h._session.run = lambda request: json.dumps({"stdout": "y" * 70_000_000, "stderr": "", "result": None, "error": None, "execution_count": 1, "truncated": None})');
        const r3 = await p.attempt(giant, '1 + 1');
        assert.ok('toolError' in r3);
        assert.match(r3.toolError, /The reply exceeded 64000000 characters and was not sent/);
        await p.assertUnharmed();
    });
});
