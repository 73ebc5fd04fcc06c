/** Who may talk to the HTTP server: token, Host/Origin allow-list, loopback rule. Pure functions, no server. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allowedHostNames, exposureProblem, hostAllowed, isLoopback } from '../../src/server/http-access.js';

describe('http access', () => {
  it('knows loopback addresses', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost']) assert.ok(isLoopback(host), host);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', 'example.com', '127.example.com']) assert.ok(!isLoopback(host), host);
  });

  it('refuses a non-loopback bind without a token', () => {
    assert.match(exposureProblem('0.0.0.0', false)!, /refusing to serve on 0\.0\.0\.0 without --auth-token/);
    assert.equal(exposureProblem('0.0.0.0', true), null);
    assert.equal(exposureProblem('127.0.0.1', false), null);
  });

  it('allows loopback names on loopback, the operator’s list when given, anything otherwise', () => {
    const loopback = allowedHostNames('127.0.0.1', null);
    assert.ok(hostAllowed(loopback, '127.0.0.1:8931', undefined));
    assert.ok(hostAllowed(loopback, 'localhost:8931', 'http://localhost:8931'));
    assert.ok(hostAllowed(loopback, '[::1]:8931', 'http://[::1]:8931'));
    for (const [host, origin] of [
      ['evil.example:8931', undefined],
      ['evil.example@127.0.0.1:8931', undefined],
      ['127.0.0.1:8931', 'http://evil.example'],
      ['127.0.0.1:8931', 'null'],
      ['127.0.0.1:8931', 'http://127.0.0.1:8931/path'],
      [undefined, undefined],
    ] as const) {
      assert.ok(!hostAllowed(loopback, host, origin), `${host} ${origin}`);
    }
    assert.equal(allowedHostNames('0.0.0.0', null), null);
    assert.ok(hostAllowed(null, 'anything', 'http://anything'));
    const listed = allowedHostNames('0.0.0.0', ['MCP.example.com']);
    assert.ok(hostAllowed(listed, 'mcp.example.com', 'https://mcp.example.com'));
    assert.ok(!hostAllowed(listed, 'localhost:1', undefined));
  });
});
