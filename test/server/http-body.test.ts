/** readJsonBody's refusals over a real loopback HTTP server: never-fitting bodies get 413, a full budget 503. */
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ByteBudget, readJsonBody } from '../../src/server/http-body.js';

const server = new ByteBudget(2 << 20, '--max-inflight-body-bytes');
const client = new ByteBudget(256 * 1024, '--max-client-body-bytes');

function post(port: number, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', method: 'POST', headers: { 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('readJsonBody', () => {
  let http: Server;
  let port: number;
  before(async () => {
    http = createServer((req, res) => {
      void readJsonBody(req, res, { maxBytes: 4 << 20, server, client, deadlineMs: 5000 }).then((result) => {
        if (result.ok) res.end(JSON.stringify({ ok: true }));
        else if (result.refusal) res.writeHead(result.refusal.status, result.refusal.headers).end(result.refusal.message);
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    port = (http.address() as AddressInfo).port;
  });
  after(() => http.close());

  it('parses a body that fits and gives its bytes back', async () => {
    const reply = await post(port, JSON.stringify({ a: 'x'.repeat(1000) }));
    assert.equal(reply.status, 200);
    assert.equal(server.held, 0);
    assert.equal(client.held, 0);
  });

  it('answers 413 for a body below the largest message that can never fit the client budget', async () => {
    const reply = await post(port, JSON.stringify({ a: 'x'.repeat(300 * 1024) }));
    assert.equal(reply.status, 413);
    assert.match(reply.text, /can never fit 262144 bytes for this client \(--max-client-body-bytes\)/);
  });

  it('answers 503 for a body that fits once what is held is answered', async () => {
    assert.ok(server.take(900 * 1024));
    try {
      const reply = await post(port, JSON.stringify({ a: 'x'.repeat(200 * 1024) }));
      assert.equal(reply.status, 503);
      assert.match(reply.text, /the server \(all clients\) would exceed 2097152 bytes/);
    } finally {
      server.give(900 * 1024);
    }
  });
});
