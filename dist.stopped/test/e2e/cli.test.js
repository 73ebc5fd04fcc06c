/** The bin as a user meets it: --help, --version, bad flags, stdout purity, shutdown. */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { CLI } from '../helpers.js';
import { envName, FLAGS } from '../../src/server/config.js';
describe('pyodide-mcp command', () => {
    it('--help lists every flag with its env twin; --version prints the version', () => {
        const help = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' });
        assert.equal(help.status, 0);
        for (const flag of Object.keys(FLAGS))
            assert.match(help.stdout, new RegExp(`--${flag}\\b`));
        assert.match(help.stdout, /PYODIDE_MCP_SESSION_TTL/);
        const version = spawnSync(process.execPath, [CLI, '--version'], { encoding: 'utf8' });
        assert.match(version.stdout.trim(), /^\d+\.\d+\.\d+$/);
    });
    it('the README documents every flag with its env twin, and every tool', async () => {
        const { readFileSync } = await import('node:fs');
        const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
        // Cell padding is allowed, so a table aligned by a Markdown formatter still counts.
        for (const flag of Object.keys(FLAGS))
            assert.match(readme, new RegExp(`\\| *\`--${flag}\` *\\| *\`${envName(flag)}\``), flag);
        const tools = [
            'execute_code',
            'create_session',
            'list_sessions',
            'close_session',
            'server_info',
            'list_packages',
            'install_packages',
            'list_files',
            'read_file',
            'write_file',
            'delete_file',
            'run_file',
            'upload_file',
            'download_file',
            'list_variables',
            'inspect_variable',
            'call_function',
            'remove_variables',
            'reset_session',
            'register_tool',
            'unregister_tool',
            'export_notebook',
        ];
        for (const tool of tools)
            assert.match(readme, new RegExp(`### .*\`${tool}\``), tool);
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
    for (const how of ['stdin closes', 'SIGTERM', 'SIGINT']) {
        it(`writes only JSON-RPC to stdout and exits 0 when ${how}`, async () => {
            const child = spawn(process.execPath, [CLI, '--preload', 'none'], { stdio: ['pipe', 'pipe', 'pipe'] });
            let stdout = '';
            child.stdout.on('data', (c) => (stdout += c.toString()));
            const send = (msg) => child.stdin.write(JSON.stringify(msg) + '\n');
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
            while (!stdout.includes('"id":2'))
                await once(child.stdout, 'data');
            const exited = once(child, 'exit');
            if (how === 'stdin closes')
                child.stdin.end();
            else
                child.kill(how);
            const [code] = await exited;
            assert.equal(code, 0);
            for (const line of stdout.split('\n').filter(Boolean))
                assert.equal(JSON.parse(line).jsonrpc, '2.0');
        });
    }
});
