/**
 * No network from a session: a loopback HTTP server started by the test counts every TCP connection, and every
 * route (fetch, XMLHttpRequest/open_url, pyfetch, urllib, sockets, WebSocket, Pyodide's package loader with a URL,
 * Node socket file system) must leave it at zero. Modern runtime, --preload none.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../helpers.js';
import { assertPythonError, missingAttribute, startProbeServer, startLoopback } from './probe.js';
describe('sandbox: network (modern runtime)', () => {
    let p;
    let s;
    let loopback;
    before(async () => {
        loopback = await startLoopback();
        p = await startProbeServer();
        s = await p.newSession();
    });
    after(async () => {
        await p.close();
        await loopback.close();
    });
    it('the loopback server is reachable from the test process (control)', async () => {
        const before = loopback.connections();
        assert.equal(await (await fetch(loopback.url)).text(), 'reached');
        assert.equal(loopback.connections(), before + 1);
        loopback.reset();
    });
    it('fetch, XMLHttpRequest, WebSocket do not exist in the realm', async () => {
        for (const name of ['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource']) {
            assertPythonError(await p.run(s, `import js\njs.${name}`), 'AttributeError', missingAttribute(name));
        }
        await p.assertUnharmed();
    });
    it('pyodide.http (open_url, pyfetch), urllib: fail', async () => {
        const open = await p.run(s, `from pyodide.http import open_url\nopen_url(${JSON.stringify(loopback.url)})`);
        assert.equal(open.success, false);
        assert.match(`${open.error.type}: ${open.error.message}`, /XMLHttpRequest|not defined|ReferenceError|NameError|ImportError|AttributeError/);
        await p.run(s, `import asyncio\nfrom pyodide.http import pyfetch\ntask = asyncio.ensure_future(pyfetch(${JSON.stringify(loopback.url)}))`);
        await eventually(async () => (await p.run(s, 'task.done()')).result === 'True', 20_000, 'pyfetch settled');
        const pyfetch = await p.run(s, 'repr(task.exception())');
        assert.match(pyfetch.result, /NameError.*_jsfetch.* is not defined/);
        const urllib = await p.run(s, `import urllib.request\nurllib.request.urlopen(${JSON.stringify(loopback.url)}, timeout=2)`);
        assert.equal(urllib.success, false);
        assert.equal(loopback.connections(), 0);
        await p.assertUnharmed();
    });
    it('sockets: connect is EHOSTUNREACH, listen is EOPNOTSUPP, Node socket FS refused', async () => {
        assertPythonError(await p.run(s, `import socket\nsocket.create_connection(('127.0.0.1', ${loopback.port}), timeout=2)`), 'OSError', /\[Errno 23\] Host is unreachable/);
        assertPythonError(await p.run(s, 'import socket\nl = socket.socket()\nl.bind(("127.0.0.1", 0))\nl.listen()'), 'OSError', /\[Errno 138\]/);
        const init = await p.run(s, 'import pyodide_js\npyodide_js._api.initializeNodeSockFS()');
        assertPythonError(init, 'JsException', /initializeNodeSockFS is disabled in the pyodide-mcp sandbox/);
        assert.equal(loopback.connections(), 0);
        await p.assertUnharmed();
    });
    it("Pyodide's package loader with an http URL makes no request", async () => {
        await p.run(s, `import pyodide_js\nremote = pyodide_js.loadPackage(${JSON.stringify(`${loopback.url}/remote-1.0-py3-none-any.whl`)})`);
        await eventually(async () => (await p.run(s, 'remote.done()')).result === 'True', 20_000, 'loadPackage settled');
        assertPythonError(await p.run(s, 'import remote'), 'ModuleNotFoundError', /No module named 'remote'/);
        await new Promise((resolve) => setTimeout(resolve, 200));
        assert.equal(loopback.connections(), 0, 'no TCP connection reached the loopback server');
        await p.assertUnharmed();
    });
});
