/**
 * Runs inside a container of the image (deploy/build-image-offline.sh pipes the compiled file into `node -` there): it
 * uses nothing but Node itself, so the image need not carry a client. Against the server the image started
 * (PYODIDE_MCP_HTTP, on the container's own loopback), it checks:
 *   1. /healthz answers 200 "ready" (polled until the warm pool is up, up to IMAGE_CHECK_WAIT_S, default 180 s);
 *   2. an MCP session over Streamable HTTP (2025-06-18, the bearer token of PYODIDE_MCP_AUTH_TOKEN) runs execute_code,
 *      or, when IMAGE_CHECK_SESSION names a saved session, that session answers restored with its variable;
 *   3. the root file system is read-only and there is no network beyond loopback (a TCP connect to a public address
 *      fails at once), as the container was started.
 * Prints one JSON line ({session_id, result, restored, ...}) on success; exits 1 with the reason otherwise.
 */
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';

const port = (process.env.PYODIDE_MCP_HTTP ?? ':8931').split(':').pop();
const base = `http://127.0.0.1:${port}`;
const token = process.env.PYODIDE_MCP_AUTH_TOKEN;
const waitS = Number(process.env.IMAGE_CHECK_WAIT_S ?? 180);
const saved = process.env.IMAGE_CHECK_SESSION;

function fail(message: string): never {
  process.stderr.write(`image-check: ${message}\n`);
  process.exit(1);
}

async function healthy(): Promise<unknown> {
  const deadline = Date.now() + waitS * 1000;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${base}/healthz`);
      const body = (await res.json()) as { status: string };
      if (res.status === 200 && body.status === 'ready') return body;
      last = `${res.status} ${JSON.stringify(body)}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await sleep(250);
  }
  return fail(`/healthz not ready after ${waitS} s: ${last}`);
}

let mcpSession: string | undefined;
let nextId = 1;

/** One JSON-RPC message to /mcp; the reply's result (from JSON or from the SSE stream), or null for a notification. */
async function rpc(method: string, params: unknown, notification = false): Promise<Record<string, unknown> | null> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
  };
  if (token) headers.authorization = `Bearer ${token}`;
  if (mcpSession) headers['mcp-session-id'] = mcpSession;
  const message = notification ? { jsonrpc: '2.0', method, params } : { jsonrpc: '2.0', id: nextId++, method, params };
  const res = await fetch(`${base}/mcp`, { method: 'POST', headers, body: JSON.stringify(message) });
  if (notification) {
    if (res.status !== 202) fail(`${method}: HTTP ${res.status} ${await res.text()}`);
    return null;
  }
  mcpSession ??= res.headers.get('mcp-session-id') ?? undefined;
  const text = await res.text();
  if (res.status !== 200) fail(`${method}: HTTP ${res.status} ${text}`);
  // An SSE reply carries the response in a `data:` line.
  const json = (res.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)) as { id?: number; result?: Record<string, unknown>; error?: unknown })
        .find((m) => m.id === message.id)
    : (JSON.parse(text) as { result?: Record<string, unknown>; error?: unknown });
  if (!json?.result) fail(`${method}: ${text}`);
  return json.result;
}

/** Whether a TCP connection to a public address fails (no route: only loopback in the container). */
function noNetwork(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '1.1.1.1', port: 443, timeout: 5000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(true);
    });
  });
}

const health = await healthy();
await rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'image-check', version: '0' } });
await rpc('notifications/initialized', {}, true);
const code = saved ? 'x * 2' : 'import sys\nx = 21\n(x * 2, sys.version_info[:2])';
const args = saved ? { session_id: saved, code } : { code };
const call = await rpc('tools/call', { name: 'execute_code', arguments: args });
const reply = (call?.structuredContent ?? {}) as { session_id?: string; result?: string; restored?: unknown; success?: boolean };
if (call?.isError || reply.success !== true) fail(`execute_code: ${JSON.stringify(call)}`);

let readOnly = false;
try {
  // The image's user owns its home: only a read-only root file system refuses this write.
  writeFileSync('/home/node/written-at-run-time', 'x');
} catch (error) {
  readOnly = (error as NodeJS.ErrnoException).code === 'EROFS';
}
if (!readOnly) fail('the root file system is writable');
if (!(await noNetwork())) fail('a public address is reachable from the container');
process.stdout.write(
  `${JSON.stringify({ health, session_id: reply.session_id, result: reply.result, restored: reply.restored ?? null, readOnly, network: 'loopback only', uid: process.getuid?.() })}\n`,
);
