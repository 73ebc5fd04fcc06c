/**
 * BENCH_ONLY=fairness: one Streamable HTTP server (--preload none, no warm sessions), client B's server_info latency
 * alone and while client A keeps 64 tools/list in flight (raw POSTs from a worker thread of their own, so that A's
 * client-side processing does not delay B's in this process's event loop; past --max-client-requests A gets 429
 * and sends again at once). Also the server's cost of one tools/list, from A's sequential round trips.
 */
import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import type { Section } from '../section.js';
import { CLI } from '../server.js';
import { log } from '../table.js';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

type Record = (metric: string, values: number[], unit: string, target?: string, note?: string, withP99?: boolean) => unknown;

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

/**
 * Client A: `inFlight` tools/list POSTs kept in flight until told to stop; says 'started' once under way, and at the
 * end replies with the count of each status (from 'started' on).
 */
const FLOODER = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, headers, inFlight } = workerData;
let flooding = true;
let id = 1e9;
const statuses = new Map();
const flooder = async () => {
  while (flooding) {
    const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/list' }) });
    await res.text();
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    // Under way: B is measured from now (fetch's first call in a thread loads undici, which takes a while).
    if (++replies === 4 * inFlight) {
      statuses.clear();
      parentPort.postMessage('started');
    }
  }
};
let replies = 0;
const flood = Array.from({ length: inFlight }, flooder);
parentPort.once('message', async () => {
  flooding = false;
  await Promise.all(flood);
  parentPort.postMessage(statuses);
});
`;

export async function fairness(cli: string, record: Record, log: (message: string) => void): Promise<void> {
  const child = spawn(process.execPath, [cli, '--http', '127.0.0.1:0', '--preload', 'none', '--warm-sessions', '0'], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) resolve(new URL(match[1]!));
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${stderr}`)));
  });
  const connect = async () => {
    const client = new Client({ name: 'bench-fairness', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(url));
    return client;
  };
  const [a, b] = [await connect(), await connect()];
  const aHeaders = { ...HEADERS, 'mcp-session-id': (a.transport as StreamableHTTPClientTransport).sessionId! };
  let id = 0;
  const toolsList = async () => {
    const res = await fetch(url, {
      method: 'POST',
      headers: aHeaders,
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/list' }),
    });
    await res.text();
    return res.status;
  };
  const serverInfo = async (n: number) => {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const started = performance.now();
      await b.callTool({ name: 'server_info', arguments: {} });
      times.push(performance.now() - started);
    }
    return times;
  };

  await serverInfo(5);
  await toolsList();
  const sequential: number[] = [];
  for (let i = 0; i < 50; i++) {
    const started = performance.now();
    await toolsList();
    sequential.push(performance.now() - started);
  }
  record('tools/list round trip over HTTP, one at a time (raw POST, cached list)', sequential, 'ms');
  record("client B's server_info, alone", await serverInfo(50), 'ms', undefined, undefined, true);

  const flood = new Worker(FLOODER, { eval: true, workerData: { url: url.href, headers: aHeaders, inFlight: 64 } });
  await new Promise((resolve) => flood.once('message', resolve));
  const floodStarted = performance.now();
  const during = await serverInfo(50);
  const floodSeconds = (performance.now() - floodStarted) / 1000;
  flood.postMessage('stop');
  const statuses = (await new Promise((resolve) => flood.once('message', resolve))) as Map<number, number>;
  await flood.terminate();
  const counts = `${[...statuses].map(([status, n]) => `${n}× ${status}`).join(', ')} in ${floodSeconds.toFixed(1)} s`;
  record("client B's server_info while client A keeps 64 tools/list in flight", during, 'ms', undefined, `A's replies: ${counts}`, true);
  log(`fairness: A's tools/list replies during the flood: ${counts}`);
  await Promise.all([a.close(), b.close()]);
  child.kill('SIGTERM');
}

export const section: Section = { name: 'fairness', inFullRun: false, run: ({ table }) => fairness(CLI, table.record, log) };
