/** The bin as a user meets it: --help, --version, bad flags, stdout purity, shutdown. */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { CLI } from '../helpers.js';
import { FLAGS } from '../../src/server/flags.js';

describe('pyodide-mcp command', () => {
  it('--help lists every flag with its env twin; --version prints the version', () => {
    const help = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' });
    assert.equal(help.status, 0);
    for (const flag of Object.keys(FLAGS)) assert.match(help.stdout, new RegExp(`--${flag}\\b`));
    assert.match(help.stdout, /PYODIDE_MCP_SESSION_TTL/);
    const version = spawnSync(process.execPath, [CLI, '--version'], { encoding: 'utf8' });
    assert.match(version.stdout.trim(), /^\d+\.\d+\.\d+$/);
  });

  it('a bad flag or value exits 2 with a message on stderr and nothing on stdout', () => {
    for (const args of [['--timeout', 'soon'], ['--no-such-flag'], ['--runtime', 'ancient'], ['--timeout', '50', '--max-timeout', '10']]) {
      const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
      assert.equal(r.status, 2, args.join(' '));
      assert.equal(r.stdout, '');
      assert.ok(r.stderr.length > 10);
    }
    const env = spawnSync(process.execPath, [CLI], { encoding: 'utf8', env: { PATH: process.env.PATH, PYODIDE_MCP_MAX_SESSIONS: '-3' } });
    assert.equal(env.status, 2);
    assert.match(env.stderr, /PYODIDE_MCP_MAX_SESSIONS/);
  });

  for (const how of ['stdin closes', 'SIGTERM', 'SIGINT'] as const) {
    it(`writes only JSON-RPC to stdout and exits 0 when ${how}`, async () => {
      const child = spawn(process.execPath, [CLI, '--preload', 'none'], { stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      const send = (msg: object) => child.stdin.write(JSON.stringify(msg) + '\n');
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'execute_code', arguments: { code: 'print("to the reply, not to stdout")\n1' } },
      });
      while (!stdout.includes('"id":2')) await once(child.stdout, 'data');
      const exited = once(child, 'exit');
      if (how === 'stdin closes') child.stdin.end();
      else child.kill(how);
      const [code] = await exited;
      assert.equal(code, 0);
      for (const line of stdout.split('\n').filter(Boolean)) assert.equal(JSON.parse(line).jsonrpc, '2.0');
    });
  }
});
