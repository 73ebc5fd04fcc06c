/** Test helpers for the Streamable HTTP mode: start the built command with --http, connect clients, raw requests. */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { CLI, TEST_ISOLATION } from './helpers.js';

export interface RunningHttp {
  child: ChildProcess;
  url: URL;
  stderr: () => string;
  exited: Promise<number | null>;
  /** SIGTERM, then the exit. */
  stop: () => Promise<void>;
}

/**
 * Starts the command on a free loopback port (no preload, no warm pool unless `env` asks for one: see startServer)
 * and waits for its "listening on" line.
 */
export async function startHttp(flags: string[], env: Record<string, string> = {}): Promise<RunningHttp> {
  const child = spawn(process.execPath, [CLI, '--http', '127.0.0.1:0', ...flags], {
    env: {
      PATH: process.env.PATH ?? '',
      PYODIDE_MCP_PRELOAD: 'none',
      PYODIDE_MCP_WARM_SESSIONS: '0',
      PYODIDE_MCP_ISOLATION: TEST_ISOLATION,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) resolve(new URL(match[1]!));
    });
    void exited.then((code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  assert.equal(url.pathname, '/mcp');
  return {
    child,
    url,
    stderr: () => stderr + (stdout ? `\nstdout: ${stdout}` : ''),
    exited,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The SDK's client over Streamable HTTP. */
export async function connectHttp(url: URL, token?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : undefined,
  });
  const client = new Client({ name: 'http-test', version: '0.0.0' });
  await client.connect(transport);
  return client;
}

/** The Mcp-Session-Id of a connected client, for raw requests on its behalf. */
export function sessionIdOf(client: Client): string {
  const id = (client.transport as StreamableHTTPClientTransport).sessionId;
  assert.ok(id, 'the client has an MCP session');
  return id;
}

export const JSON_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

export interface RawReply {
  status: number;
  headers: IncomingHttpHeaders;
  /** The whole body, once it has ended. */
  body: Promise<string>;
}

/**
 * A raw POST (node:http, its own connection). `body` is sent whole, unless `stallAfter` is given: then only that many
 * bytes are sent and the request stays open until `abort()`. `declare: false` sends it chunked (no Content-Length).
 * `reply` resolves when the response headers arrive; status 0 when the connection ended without any.
 */
export function rawPost(
  url: URL,
  headers: Record<string, string>,
  body: string | Buffer,
  options: { stallAfter?: number; declare?: boolean } = {},
): { reply: Promise<RawReply>; abort: () => void } {
  const bytes = Buffer.from(body);
  const all = {
    ...headers,
    ...(options.declare === false ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(bytes.length) }),
  };
  const req = request(url, { method: 'POST', headers: all, agent: false });
  const reply = new Promise<RawReply>((resolve) => {
    req.on('response', (res) => {
      const text = new Promise<string>((done) => {
        let data = '';
        res.on('data', (chunk: Buffer) => (data += chunk.toString()));
        res.on('end', () => done(data));
        res.on('close', () => done(data));
      });
      resolve({ status: res.statusCode!, headers: res.headers, body: text });
    });
    // The server may close the connection while the body is still being written (a refused body): not a test failure.
    req.on('error', () => resolve({ status: 0, headers: {}, body: Promise.resolve('') }));
    req.on('close', () => resolve({ status: 0, headers: {}, body: Promise.resolve('') }));
  });
  if (options.stallAfter === undefined) req.end(bytes);
  else req.write(bytes.subarray(0, options.stallAfter));
  return { reply, abort: () => req.destroy() };
}

/** Resident memory of a process, in bytes (Linux: /proc/PID/status VmRSS). */
export function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  assert.ok(match, 'VmRSS is readable');
  return Number(match[1]) * 1024;
}

/** A JSON-RPC ping of about `bytes` bytes (padded in _meta, which every request may carry). */
export function paddedPing(id: number, bytes: number): string {
  const head = `{"jsonrpc":"2.0","id":${id},"method":"ping","params":{"_meta":{"pad":"`;
  const tail = '"}}}';
  return head + 'x'.repeat(Math.max(0, bytes - head.length - tail.length)) + tail;
}
