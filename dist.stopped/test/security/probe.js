/**
 * Helpers for the sandbox probes: a server with an attacker session and a bystander session, assertions that a
 * probe failed for the RIGHT reason (exact Python exception type and message), and that the server and the
 * bystander are unharmed afterwards.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { crc32 } from 'node:zlib';
import { startServer, textOf } from '../helpers.js';
export async function startProbeServer(flags = ['--preload', 'none'], env = {}) {
    const h = await startServer(flags, env);
    const attempt = async (session, code, timeoutSeconds = 30) => {
        const r = await h.call('execute_code', { session_id: session, code, timeout_seconds: timeoutSeconds });
        if (r.isError)
            return { toolError: textOf(r) };
        return r.structuredContent;
    };
    const run = async (session, code, timeoutSeconds = 30) => {
        const r = await attempt(session, code, timeoutSeconds);
        if ('toolError' in r)
            throw new Error(`execute_code failed as a tool error: ${r.toolError}`);
        return r;
    };
    const newSession = async () => (await h.ok('create_session')).session_id;
    const bystander = await newSession();
    await run(bystander, 'kept = [6, 7]');
    return {
        h,
        run,
        attempt,
        newSession,
        async assertUnharmed() {
            await h.client.ping();
            const r = await run(bystander, 'kept[0] * kept[1]');
            assert.equal(r.result, '42', 'the bystander session kept its state and still computes');
        },
        close: () => h.close(),
    };
}
/** Asserts a Python exception of exactly `type` whose message matches `message`. */
export function assertPythonError(outcome, type, message) {
    assert.equal(outcome.success, false, `expected ${type}, got success with result ${outcome.result}`);
    assert.equal(outcome.error?.type, type, `expected ${type}: ${message}, got ${outcome.error?.type}: ${outcome.error?.message}`);
    assert.match(outcome.error.message, message);
}
/** The error raised inside the JS realm when something tries to compile code from a string. */
export const EVAL_REFUSED = /EvalError: Code generation from strings disallowed for this context/;
/** AttributeError message for a missing attribute on a JsProxy (Pyodide 314 and 0.17 word it the same). */
export const missingAttribute = (name) => new RegExp(`^${name}$`);
/** A temporary directory holding a secret file; removed by `dispose`. */
export function secretDir() {
    const dir = mkdtempSync(join(tmpdir(), 'pyodide-mcp-secret-'));
    const secret = `SECRET-${Math.random().toString(36).slice(2)}-${Date.now()}`;
    const file = join(dir, 'secret.txt');
    writeFileSync(file, secret);
    return { dir, file, secret, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}
/** A minimal pure-Python wheel (stored zip) whose module `name` defines VALUE = value. */
export function writeWheel(dir, name, value) {
    const files = [
        [`${name}/__init__.py`, `VALUE = ${JSON.stringify(value)}\n`],
        [`${name}-1.0.dist-info/METADATA`, `Metadata-Version: 2.1\nName: ${name}\nVersion: 1.0\n`],
        [`${name}-1.0.dist-info/WHEEL`, 'Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n'],
        [`${name}-1.0.dist-info/RECORD`, ''],
    ];
    const locals = [];
    const centrals = [];
    let offset = 0;
    for (const [path, text] of files) {
        const nameBytes = Buffer.from(path);
        const data = Buffer.from(text);
        const crc = crc32(data);
        const local = Buffer.alloc(30);
        local.writeUInt32LE(0x04034b50, 0);
        local.writeUInt16LE(20, 4);
        local.writeUInt32LE(crc, 14);
        local.writeUInt32LE(data.length, 18);
        local.writeUInt32LE(data.length, 22);
        local.writeUInt16LE(nameBytes.length, 26);
        const central = Buffer.alloc(46);
        central.writeUInt32LE(0x02014b50, 0);
        central.writeUInt16LE(20, 4);
        central.writeUInt16LE(20, 6);
        central.writeUInt32LE(crc, 16);
        central.writeUInt32LE(data.length, 20);
        central.writeUInt32LE(data.length, 24);
        central.writeUInt16LE(nameBytes.length, 28);
        central.writeUInt32LE(offset, 42);
        locals.push(local, nameBytes, data);
        centrals.push(central, nameBytes);
        offset += local.length + nameBytes.length + data.length;
    }
    const centralSize = centrals.reduce((n, b) => n + b.length, 0);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(files.length, 8);
    end.writeUInt16LE(files.length, 10);
    end.writeUInt32LE(centralSize, 12);
    end.writeUInt32LE(offset, 16);
    const path = join(dir, `${name}-1.0-py3-none-any.whl`);
    writeFileSync(path, Buffer.concat([...locals, ...centrals, end]));
    return path;
}
/** A loopback HTTP server that counts the connections it sees: a probe that reaches it broke out of the sandbox. */
export async function startLoopback() {
    let connections = 0;
    const http = createServer((_req, res) => res.end('reached'));
    http.on('connection', () => connections++);
    await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
    const port = http.address().port;
    return {
        port,
        url: `http://127.0.0.1:${port}`,
        connections: () => connections,
        reset: () => (connections = 0),
        close: () => new Promise((resolve) => http.close(() => resolve())),
    };
}
