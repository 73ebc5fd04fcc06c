/** The flag table → Config: defaults, env twins, precedence, every flag's field and every error path. No Pyodide. */
import assert from 'node:assert/strict';
import { delimiter } from 'node:path';
import { describe, it } from 'node:test';
import { PACKAGE_WHEELS_DIR } from '../../src/paths.js';
import { modernVersion } from '../../src/python/distribution.js';
import { DEFAULT_PRELOAD } from '../../src/python/wheels.js';
import { DEFAULT_MAX_WASM_MEMORY_MB } from '../../src/sandbox/worker-sandbox.js';
import { envName, FLAGS, helpText, parseConfig } from '../../src/server/config.js';
const CWD = '/srv/project';
/** The Config for these flags and env vars (fails the test on --help / --version). */
function run(argv = [], env = {}) {
    const action = parseConfig(argv, env, CWD);
    assert.ok(action.action === 'run', `expected a config, got ${action.action}`);
    return action.config;
}
/** Asserts that parsing throws a TypeError whose message matches every pattern. */
function refused(argv, env, ...patterns) {
    assert.throws(() => parseConfig(argv, env, CWD), (error) => {
        assert.ok(error instanceof TypeError, `expected a TypeError, got ${String(error)}`);
        for (const pattern of patterns)
            assert.match(error.message, pattern);
        return true;
    });
}
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** One sample per flag: the type makes a new flag without a sample a compile error. */
const SAMPLES = {
    'session-ttl': { value: '60', field: (c) => c.sessionTtlMs, expected: 60_000, bad: '0' },
    timeout: { value: '12.5', field: (c) => c.defaultTimeoutMs, expected: 12_500, bad: 'soon' },
    'max-timeout': { value: '600', field: (c) => c.maxTimeoutMs, expected: 600_000, bad: '-1' },
    'max-sessions': { value: '3', field: (c) => c.maxSessions, expected: 3, bad: '1.5' },
    'max-code-chars': { value: '5000', field: (c) => c.maxCodeChars, expected: 5000, bad: '0' },
    'max-output-chars': { value: '7', field: (c) => [c.limits.stdout, c.limits.stderr], expected: [7, 7], bad: '-1' },
    'max-result-chars': { value: '8', field: (c) => c.limits.result, expected: 8, bad: 'lots' },
    'max-traceback-chars': { value: '9', field: (c) => c.limits.traceback, expected: 9, bad: '10000001' },
    'interrupt-grace': { value: '500', field: (c) => c.interruptGraceMs, expected: 500, bad: '49' },
    'max-heap-mb': { value: '256', field: (c) => c.maxHeapMb, expected: 256, bad: '63' },
    'warm-sessions': { value: '0', field: (c) => c.warmSessions, expected: 0, bad: '65' },
    runtime: { value: 'modern', field: (c) => c.runtime, expected: 'modern', bad: 'ancient' },
    preload: { value: 'numpy, sympy', field: (c) => c.preload, expected: ['numpy', 'sympy'] },
    'max-file-bytes': { value: '1024', field: (c) => c.fileLimits.maxFileBytes, expected: 1024, bad: String(2 ** 31 + 1) },
    'max-session-bytes': { value: '2048', field: (c) => c.fileLimits.maxSessionBytes, expected: 2048, bad: '-5' },
    'max-files': { value: '10', field: (c) => c.fileLimits.maxFiles, expected: 10, bad: '0' },
    'max-image-bytes': { value: '0', field: (c) => c.maxImageBytes, expected: 0, bad: '1.5' },
    'max-read-bytes': { value: '4096', field: (c) => c.maxReadBytes, expected: 4096, bad: '1023' },
    'figure-formats': { value: 'png,svg', field: (c) => c.figureFormats, expected: ['png', 'svg'], bad: 'gif' },
    'allow-dir': { value: ['/data', '/more data'].join(delimiter), field: (c) => c.allowDirs, expected: ['/data', '/more data'], bad: '' },
    'allow-all-dirs': { value: 'true', field: (c) => c.allowAllDirs, expected: true, bad: 'yes' },
    isolation: { value: 'thread', field: (c) => c.isolation, expected: 'thread', bad: 'vm' },
    'max-reply-bytes': { value: '100000', field: (c) => c.maxReplyBytes, expected: 100_000, bad: '1000' },
    'max-session-memory-mb': { value: '512', field: (c) => c.maxSessionMemoryMb, expected: 512, bad: '100' },
    'allow-network': { value: 'true', field: (c) => c.allowNetwork, expected: true, bad: 'on' },
    'index-url': { value: 'http://127.0.0.1:8080/pypi', field: (c) => c.indexUrl, expected: 'http://127.0.0.1:8080/pypi', bad: 'not a url' },
    'max-memory-mb': { value: '2048', field: (c) => c.maxMemoryMb, expected: 2048, bad: '4097' },
    'no-structured-content': { value: 'true', field: (c) => c.structuredContent, expected: false, bad: 'no' },
    'resource-links': { value: 'true', field: (c) => c.resourceLinks, expected: true, bad: 'links' },
    'snapshot-dir': { value: '/var/cache/snaps', field: (c) => c.snapshotDir, expected: '/var/cache/snaps', bad: '' },
    'max-history-cells': { value: '10', field: (c) => c.maxHistoryCells, expected: 10, bad: '-1' },
    'max-history-bytes': { value: '65536', field: (c) => c.maxHistoryBytes, expected: 65536, bad: '100' },
    'state-dir': { value: '/var/lib/pyodide-mcp', field: (c) => c.stateDir, expected: '/var/lib/pyodide-mcp', bad: '' },
    tools: { value: 'execute_code, list_files', field: (c) => c.tools, expected: ['execute_code', 'list_files'] },
    profile: { value: 'compact', field: (c) => c.profile, expected: 'compact', bad: 'tiny' },
    'wheels-dir': { value: '/opt/wheels', field: (c) => c.wheelDirs, expected: [{ path: '/opt/wheels', private: false }], bad: '' },
    'lock-file': { value: '/opt/mirror/pyodide-lock.json', field: (c) => c.lockFile, expected: '/opt/mirror/pyodide-lock.json', bad: '' },
    http: { value: '[::1]:8931', field: (c) => c.http.listen, expected: { host: '::1', port: 8931 }, bad: '127.0.0.1:70000' },
    'auth-token': { value: 'x'.repeat(32), field: (c) => c.http.authToken, expected: 'x'.repeat(32), bad: 'short' },
    'allowed-hosts': {
        value: 'mcp.example.com, 10.0.0.5',
        field: (c) => c.http.allowedHosts,
        expected: ['mcp.example.com', '10.0.0.5'],
        bad: 'h:80',
    },
    'max-clients': { value: '3', field: (c) => c.http.maxClients, expected: 3, bad: '0' },
};
const isSwitch = (flag) => 'boolean' in FLAGS[flag];
const isRepeatable = (flag) => 'multiple' in FLAGS[flag];
const flagNames = Object.keys(SAMPLES).filter((name) => name in FLAGS);
/** The sample as a user types it: `--flag value` (once per value for a repeatable flag), or `--flag` for a switch. */
function argvFor(flag, value) {
    if (isSwitch(flag))
        return value === 'true' ? [`--${flag}`] : [];
    if (isRepeatable(flag))
        return value.split(delimiter).flatMap((v) => [`--${flag}`, v]);
    return [`--${flag}`, value];
}
describe('parseConfig', () => {
    it('gives the documented defaults', () => {
        const { snapshotDir, wheelDirs, ...rest } = run();
        assert.deepEqual(rest, {
            sessionTtlMs: 1_800_000,
            defaultTimeoutMs: 30_000,
            maxTimeoutMs: 300_000,
            maxSessions: 16,
            maxCodeChars: 200_000,
            limits: { stdout: 20_000, stderr: 20_000, result: 10_000, traceback: 10_000 },
            interruptGraceMs: 1500,
            maxHeapMb: 512,
            warmSessions: 2,
            runtime: 'auto',
            preload: DEFAULT_PRELOAD,
            fileLimits: { maxFileBytes: 50 * 2 ** 20, maxSessionBytes: 200 * 2 ** 20, maxFiles: 1000 },
            maxImageBytes: 2 ** 20,
            maxReadBytes: 2 ** 20,
            figureFormats: ['png'],
            allowAllDirs: false,
            allowNetwork: false,
            indexUrl: 'https://pypi.org/pypi',
            maxMemoryMb: DEFAULT_MAX_WASM_MEMORY_MB,
            maxHistoryCells: 500,
            maxHistoryBytes: 8 * 2 ** 20,
            lockFile: undefined,
            stateDir: null,
            tools: null,
            profile: 'full',
            isolation: 'process',
            maxReplyBytes: 4 * 2 ** 20,
            maxSessionMemoryMb: 2048,
            allowDirs: [],
            structuredContent: true,
            resourceLinks: false,
            http: { listen: null, authToken: null, allowedHosts: null, maxClients: 64 },
        });
        assert.match(snapshotDir, /pyodide-mcp\/snapshots$/);
        assert.deepEqual(wheelDirs.map((dir) => dir.private), [false, true]);
    });
    it('looks for wheels in the package, then in the per-user cache of the pinned Pyodide version', () => {
        const dirs = run([], { XDG_CACHE_HOME: '/xdg', HOME: '/home/u' }).wheelDirs;
        assert.deepEqual(dirs, [
            { path: PACKAGE_WHEELS_DIR, private: false },
            { path: `/xdg/pyodide-mcp/${modernVersion()}/wheels`, private: true },
        ]);
    });
    it('reads --http as [HOST]:PORT, the host 127.0.0.1 when left out', () => {
        assert.deepEqual(run(['--http', ':0']).http.listen, { host: '127.0.0.1', port: 0 });
        assert.deepEqual(run(['--http', '0.0.0.0:80']).http.listen, { host: '0.0.0.0', port: 80 });
        assert.deepEqual(run(['--http', 'localhost:8931']).http.listen, { host: 'localhost', port: 8931 });
        refused(['--http', '8931'], {}, /for --http: expected \[HOST\]:PORT/);
        refused(['--http', 'a b:1'], {}, /for --http: /);
    });
    it('puts snapshots in the per-user cache: $XDG_CACHE_HOME when absolute, else ~/.cache', () => {
        assert.equal(run([], { XDG_CACHE_HOME: '/xdg', HOME: '/home/u' }).snapshotDir, '/xdg/pyodide-mcp/snapshots');
        assert.equal(run([], { XDG_CACHE_HOME: 'relative', HOME: '/home/u' }).snapshotDir, '/home/u/.cache/pyodide-mcp/snapshots');
        assert.equal(run([], { HOME: '/home/u' }).snapshotDir, '/home/u/.cache/pyodide-mcp/snapshots');
    });
    it('shares its defaults with the modules that use them', () => {
        assert.equal(FLAGS.preload.default, DEFAULT_PRELOAD.join(','));
        assert.equal(FLAGS['max-memory-mb'].default, String(DEFAULT_MAX_WASM_MEMORY_MB));
    });
    it('names every env twin PYODIDE_MCP_<FLAG>', () => {
        assert.equal(envName('session-ttl'), 'PYODIDE_MCP_SESSION_TTL');
        assert.equal(envName('max-traceback-chars'), 'PYODIDE_MCP_MAX_TRACEBACK_CHARS');
        assert.equal(envName('timeout'), 'PYODIDE_MCP_TIMEOUT');
    });
    for (const flag of flagNames) {
        const { value, field, expected } = SAMPLES[flag];
        it(`--${flag} and ${envName(flag)} reach the same field`, () => {
            assert.deepEqual(field(run(argvFor(flag, value))), expected, `--${flag}`);
            assert.deepEqual(field(run([], { [envName(flag)]: value })), expected, envName(flag));
        });
    }
    for (const flag of flagNames) {
        const { bad } = SAMPLES[flag];
        if (bad === undefined)
            continue;
        it(`refuses ${JSON.stringify(bad)} for --${flag}, naming the flag, the value and the rule`, () => {
            const help = new RegExp(escape(FLAGS[flag].help));
            const value = escape(JSON.stringify(isRepeatable(flag) ? [bad] : bad));
            // A switch takes no value on the command line (node:util refuses it); its value comes from the env twin.
            if (isSwitch(flag))
                refused([`--${flag}=${bad}`], {}, new RegExp(`'--${flag}' does not take an argument`), /--help/);
            else
                refused([`--${flag}=${bad}`], {}, new RegExp(`^Invalid value ${value} for --${flag}: `), help);
            if (!isRepeatable(flag))
                refused([], { [envName(flag)]: bad }, new RegExp(`^Invalid value "${escape(bad)}" for ${envName(flag)}: `), help);
        });
    }
    it('lets the flag win over its env twin (the env value is then not even checked)', () => {
        assert.equal(run(['--max-sessions', '5'], { PYODIDE_MCP_MAX_SESSIONS: '3' }).maxSessions, 5);
        assert.equal(run(['--timeout', '5'], { PYODIDE_MCP_TIMEOUT: 'soon' }).defaultTimeoutMs, 5000);
        assert.deepEqual(run(['--allow-dir', '/flag'], { PYODIDE_MCP_ALLOW_DIR: `/env1${delimiter}/env2` }).allowDirs, ['/flag']);
        assert.equal(run(['--allow-network'], { PYODIDE_MCP_ALLOW_NETWORK: 'false' }).allowNetwork, true);
        assert.equal(run([], { PYODIDE_MCP_MAX_SESSIONS: undefined }).maxSessions, 16, 'an unset variable is no value');
    });
    it('reads switches: the flag alone is true; the env twin takes true/false/1/0', () => {
        assert.equal(run(['--allow-all-dirs']).allowAllDirs, true);
        assert.equal(run([]).allowAllDirs, false);
        for (const [text, expected] of [
            ['true', true],
            ['1', true],
            ['false', false],
            ['0', false],
        ]) {
            assert.equal(run([], { PYODIDE_MCP_ALLOW_NETWORK: text }).allowNetwork, expected, text);
        }
        refused([], { PYODIDE_MCP_ALLOW_NETWORK: 'TRUE' }, /for PYODIDE_MCP_ALLOW_NETWORK: /);
    });
    it('reads comma lists, trimming blanks; "none" is the empty list', () => {
        assert.deepEqual(run(['--preload', 'none']).preload, []);
        assert.deepEqual(run(['--preload', ' none ']).preload, []);
        assert.deepEqual(run([], { PYODIDE_MCP_PRELOAD: 'none' }).preload, []);
        assert.deepEqual(run(['--preload', ' numpy , ,sympy,']).preload, ['numpy', 'sympy']);
        assert.deepEqual(run(['--preload', '']).preload, []);
        assert.deepEqual(run(['--figure-formats', 'svg']).figureFormats, ['svg']);
        refused(['--figure-formats', 'none'], {}, /for --figure-formats: /, /png, or png,svg/);
        refused(['--figure-formats', 'png,gif'], {}, /Invalid value "png,gif" for --figure-formats: /);
    });
    it('takes --allow-dir several times, and several directories in its env twin joined by the path delimiter', () => {
        assert.deepEqual(run(['--allow-dir', '/a', '--allow-dir', '/b', '--allow-dir', '/a']).allowDirs, ['/a', '/b', '/a']);
        assert.deepEqual(run([], { PYODIDE_MCP_ALLOW_DIR: `${delimiter}/a${delimiter}${delimiter}/b${delimiter}` }).allowDirs, ['/a', '/b']);
        assert.deepEqual(run([], { PYODIDE_MCP_ALLOW_DIR: '/only' }).allowDirs, ['/only']);
        // An env twin with no directory in it is the same as not setting it.
        assert.deepEqual(run([], { PYODIDE_MCP_ALLOW_DIR: delimiter }).allowDirs, run().allowDirs);
        assert.deepEqual(run([], { PYODIDE_MCP_ALLOW_DIR: '' }).allowDirs, run().allowDirs);
        // A switch's env twin set but empty loosens nothing.
        assert.equal(run([], { PYODIDE_MCP_ALLOW_NETWORK: '', PYODIDE_MCP_ALLOW_ALL_DIRS: '' }).allowNetwork, false);
        assert.equal(run([], { PYODIDE_MCP_ALLOW_ALL_DIRS: '' }).allowAllDirs, false);
        refused(['--allow-dir', '/a', '--allow-dir', ''], {}, /^Invalid value \["\/a",""\] for --allow-dir: /);
    });
    it('converts seconds to whole milliseconds and turns --snapshot-dir none into null', () => {
        assert.equal(run(['--timeout', '0.25']).defaultTimeoutMs, 250);
        assert.equal(run(['--timeout', '1.0006']).defaultTimeoutMs, 1001);
        assert.equal(run(['--session-ttl', '1e3']).sessionTtlMs, 1_000_000);
        assert.equal(run(['--snapshot-dir', 'none']).snapshotDir, null);
        assert.equal(run([], { PYODIDE_MCP_SNAPSHOT_DIR: 'none' }).snapshotDir, null);
    });
    it('refuses unknown flags, missing values and positional arguments, pointing at --help', () => {
        refused(['--no-such-flag'], {}, /^Unknown option '--no-such-flag'/, /Run with --help to see every flag\.$/);
        refused(['--timeout'], {}, /--timeout <value>' argument missing/, /--help/);
        refused(['stray'], {}, /Unexpected argument 'stray'/, /--help/);
        refused(['-t', '5'], {}, /Unknown option '-t'/);
    });
    it('refuses a value out of range or of the wrong kind, naming the flag, the value and the rule', () => {
        refused(['--timeout', 'soon'], {}, /^Invalid value "soon" for --timeout: .*expected number/, /Default time limit of one execution/);
        refused(['--max-sessions', '0'], {}, /^Invalid value "0" for --max-sessions: Too small/);
        refused(['--max-sessions', '1001'], {}, /^Invalid value "1001" for --max-sessions: Too big/);
        refused(['--max-sessions', '2.5'], {}, /^Invalid value "2.5" for --max-sessions: .*expected int/);
        refused(['--timeout', '0'], {}, /^Invalid value "0" for --timeout: Too small/);
        refused(['--timeout', String(24 * 3600 + 1)], {}, /^Invalid value "86401" for --timeout: Too big/);
        refused(['--runtime', 'ancient'], {}, /^Invalid value "ancient" for --runtime: .*"auto"\|"modern"\|"legacy"/);
        refused(['--index-url', 'pypi'], {}, /^Invalid value "pypi" for --index-url: /);
        refused([], { PYODIDE_MCP_MAX_SESSIONS: '-3' }, /^Invalid value "-3" for PYODIDE_MCP_MAX_SESSIONS: Too small/);
        refused([], { PYODIDE_MCP_TIMEOUT: '' }, /^Invalid value "" for PYODIDE_MCP_TIMEOUT: /);
    });
    it('reports the first bad flag in table order when several are bad', () => {
        refused(['--max-sessions', '0', '--timeout', 'soon'], {}, /for --timeout: /);
        refused(['--wheels-dir', ''], { PYODIDE_MCP_SESSION_TTL: '-1' }, /for PYODIDE_MCP_SESSION_TTL: /);
    });
    it('refuses a --timeout larger than --max-timeout, from flags or env', () => {
        const message = /^--timeout \(50\) is larger than --max-timeout \(10\); raise --max-timeout or lower --timeout\.$/;
        refused(['--timeout', '50', '--max-timeout', '10'], {}, message);
        refused([], { PYODIDE_MCP_TIMEOUT: '50', PYODIDE_MCP_MAX_TIMEOUT: '10' }, message);
        refused(['--timeout', '301'], {}, /--timeout \(301\) is larger than --max-timeout \(300\)/);
        const equal = run(['--timeout', '10', '--max-timeout', '10']);
        assert.equal(equal.defaultTimeoutMs, equal.maxTimeoutMs);
    });
    it('answers --help and --version before reading any value', () => {
        assert.deepEqual(parseConfig(['--help'], { PYODIDE_MCP_TIMEOUT: 'soon' }, CWD), { action: 'help' });
        assert.deepEqual(parseConfig(['--version', '--timeout', 'soon'], {}, CWD), { action: 'version' });
    });
});
describe('helpText', () => {
    const text = helpText('9.8.7');
    it('lists every flag with its env twin and default, then --help and --version', () => {
        assert.match(text, /^pyodide-mcp 9\.8\.7: /);
        for (const [flag, spec] of Object.entries(FLAGS)) {
            const line = text.split('\n').findIndex((l) => new RegExp(`^  --${flag}\\b`).test(l));
            assert.ok(line > 0, `--${flag} is listed`);
            const [first, second] = text.split('\n').slice(line, line + 2);
            assert.ok(first?.includes(spec.help), `help of --${flag}`);
            if (spec.default !== undefined)
                assert.ok(first?.endsWith(`(default: ${spec.default})`), `default of --${flag}`);
            assert.equal(second?.trim(), `env: ${envName(flag)}`);
        }
        assert.match(text, /^ {2}--help {2,}Show this help and exit\.$/m);
        assert.match(text, /^ {2}--version {2,}Print the version and exit\.$/m);
        assert.ok(text.endsWith('\n'));
    });
    it('shows which flags take a value', () => {
        assert.match(text, /^ {2}--timeout <value> /m);
        assert.match(text, /^ {2}--allow-dir <dir> /m);
        assert.match(text, /^ {2}--allow-network {2,}/m);
    });
});
