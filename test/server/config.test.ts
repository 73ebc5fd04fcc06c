/**
 * The flag table → Config: defaults, env twins, precedence, every flag's field and every error path; and
 * docs/configuration.md rendered from it. No Pyodide.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { delimiter } from 'node:path';
import { describe, it } from 'node:test';
import { PACKAGE_WHEELS_DIR } from '../../src/paths.js';
import { modernVersion } from '../../src/python/distribution.js';
import { DEFAULT_PRELOAD } from '../../src/python/wheels.js';
import type { MachineMemory } from '../../src/sessions/memory-budget.js';
import { DEFAULT_MAX_WASM_MEMORY_MB } from '../../src/supervisor/worker-sandbox.js';
import { parseConfig, type Config } from '../../src/server/config.js';
import { envName, FLAGS, helpText, type FlagName } from '../../src/server/flags.js';
import { TOOL_NAMES } from '../../src/server/tools/index.js';
import { CONFIG_DOC, renderFlagTable, withCurrentTable } from '../../scripts/docs-config.js';

const CWD = '/srv/project';
/** A machine where the default sessions fit in the default budget: 16 × 2048 + 4144 = 36912 ≤ 90 % of 65536. */
const BIG: MachineMemory = { memoryMb: 65_536, source: "this machine's memory", heapLimitMb: 4144 };

/** The Config for these flags and env vars (fails the test on --help / --version). */
function run(argv: string[] = [], env: Record<string, string | undefined> = {}, machine = BIG): Config {
  const action = parseConfig(argv, env, CWD, machine);
  assert.ok(action.action === 'run', `expected a config, got ${action.action}`);
  return action.config;
}

/** Asserts that parsing throws a TypeError whose message matches every pattern. */
function refused(argv: string[], env: Record<string, string | undefined>, ...patterns: RegExp[]): void {
  refusedOn(BIG, argv, env, ...patterns);
}

function refusedOn(machine: MachineMemory, argv: string[], env: Record<string, string | undefined>, ...patterns: RegExp[]): void {
  assert.throws(
    () => parseConfig(argv, env, CWD, machine),
    (error) => {
      assert.ok(error instanceof TypeError, `expected a TypeError, got ${String(error)}`);
      for (const pattern of patterns) assert.match(error.message, pattern);
      return true;
    },
  );
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Sample {
  /** A value other than the default, as typed after the flag (joined by the path delimiter for a repeatable flag). */
  value: string;
  /** Where it lands in the Config, and what it becomes there. */
  field: (config: Config) => unknown;
  expected: unknown;
  /** A value the flag refuses, when there is one. */
  bad?: string;
}

/** One sample per flag: the type makes a new flag without a sample a compile error. */
const SAMPLES: Record<FlagName, Sample> = {
  'session-ttl': { value: '60', field: (c) => c.sessionTtlMs, expected: 60_000, bad: '0' },
  timeout: { value: '12.5', field: (c) => c.defaultTimeoutMs, expected: 12_500, bad: 'soon' },
  'max-timeout': { value: '600', field: (c) => c.maxTimeoutMs, expected: 600_000, bad: '-1' },
  'max-sessions': { value: '3', field: (c) => c.maxSessions, expected: 3, bad: '1.5' },
  'max-code-chars': { value: '5000', field: (c) => c.maxCodeChars, expected: 5000, bad: '0' },
  'max-output-chars': { value: '7', field: (c) => [c.limits.stdout, c.limits.stderr], expected: [7, 7], bad: '-1' },
  'max-result-chars': { value: '8', field: (c) => c.limits.result, expected: 8, bad: 'lots' },
  'max-traceback-chars': { value: '9', field: (c) => c.limits.traceback, expected: 9, bad: '10000001' },
  'interrupt-grace': { value: '500', field: (c) => c.interruptGraceMs, expected: 500, bad: '49' },
  'max-queued-calls': { value: '8', field: (c) => c.queue.maxCalls, expected: 8, bad: '0' },
  'max-queued-bytes': { value: '1000000', field: (c) => c.queue.maxBytes, expected: 1_000_000, bad: '-1' },
  'op-timeout': { value: '2.5', field: (c) => c.opTimeoutMs, expected: 2500, bad: '0' },
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
  'max-total-memory-mb': { value: '40000', field: (c) => c.memoryBudget.totalMb, expected: 40_000, bad: '255' },
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
  'instance-id': { value: 'py-3', field: (c) => c.instanceId, expected: 'py-3', bad: 'Py_3' },
  'state-lease': { value: '2.5', field: (c) => c.stateLeaseMs, expected: 2500, bad: '0' },
  http: { value: '[::1]:8931', field: (c) => c.http.listen, expected: { host: '::1', port: 8931 }, bad: '127.0.0.1:70000' },
  'auth-token': { value: 'x'.repeat(32), field: (c) => c.http.authToken, expected: 'x'.repeat(32), bad: 'short' },
  'auth-token-file': { value: '/etc/tokens', field: (c) => c.http.authTokenFile, expected: '/etc/tokens', bad: '' },
  'allowed-hosts': {
    value: 'mcp.example.com, 10.0.0.5',
    field: (c) => c.http.allowedHosts,
    expected: ['mcp.example.com', '10.0.0.5'],
    bad: 'h:80',
  },
  'max-clients': { value: '3', field: (c) => c.http.maxClients, expected: 3, bad: '0' },
  'max-sessions-per-client': { value: '2', field: (c) => c.http.maxSessionsPerClient, expected: 2, bad: '0' },
  'max-sessions-per-tenant': { value: '6', field: (c) => c.http.maxSessionsPerTenant, expected: 6, bad: '0' },
  'max-client-requests': { value: '4', field: (c) => c.http.maxClientRequests, expected: 4, bad: '0' },
  'max-inflight-body-bytes': { value: '8388608', field: (c) => c.http.maxInflightBodyBytes, expected: 8_388_608, bad: '1000' },
  'max-client-body-bytes': { value: '4194304', field: (c) => c.http.maxClientBodyBytes, expected: 4_194_304, bad: '1.5' },
  'http-body-timeout': { value: '2.5', field: (c) => c.http.bodyTimeoutMs, expected: 2500, bad: '0' },
  'drain-grace': { value: '1.5', field: (c) => c.http.drainGraceMs, expected: 1500, bad: '0' },
  view: { value: ':0', field: (c) => c.view.listen, expected: { host: '127.0.0.1', port: 0 }, bad: '8931' },
  'view-control': { value: 'true', field: (c) => c.view.control, expected: true, bad: 'yes' },
};

const isSwitch = (flag: FlagName) => 'boolean' in FLAGS[flag];
const isRepeatable = (flag: FlagName) => 'multiple' in FLAGS[flag];
const flagNames = Object.keys(SAMPLES).filter((name): name is FlagName => name in FLAGS);

/** The sample as a user types it: `--flag value` (once per value for a repeatable flag), or `--flag` for a switch. */
function argvFor(flag: FlagName, value: string): string[] {
  if (isSwitch(flag)) return value === 'true' ? [`--${flag}`] : [];
  if (isRepeatable(flag)) return value.split(delimiter).flatMap((v) => [`--${flag}`, v]);
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
      queue: { maxCalls: 64, maxBytes: 64 * 2 ** 20 },
      opTimeoutMs: 60_000,
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
      instanceId: null,
      stateLeaseMs: 30_000,
      stateDir: null,
      tools: null,
      profile: 'full',
      isolation: 'process',
      maxReplyBytes: 4 * 2 ** 20,
      maxSessionMemoryMb: 2048,
      memoryBudget: {
        totalMb: 58_982,
        serverHeapMb: 4144,
        origin: "--max-total-memory-mb defaults to 90 % of 65536 MB, this machine's memory",
        note: null,
      },
      allowDirs: [],
      structuredContent: true,
      resourceLinks: false,
      http: {
        listen: null,
        authToken: null,
        authTokenFile: null,
        allowedHosts: null,
        maxClients: 64,
        maxSessionsPerClient: null,
        maxSessionsPerTenant: null,
        maxClientRequests: 16,
        maxInflightBodyBytes: null,
        maxClientBodyBytes: null,
        bodyTimeoutMs: 120_000,
        drainGraceMs: 25_000,
      },
      view: { listen: null, control: false },
    });
    assert.match(snapshotDir!, /pyodide-mcp\/snapshots$/);
    assert.deepEqual(
      wheelDirs.map((dir) => dir.private),
      [false, true],
    );
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
    if (bad === undefined) continue;
    it(`refuses ${JSON.stringify(bad)} for --${flag}, naming the flag, the value and the rule`, () => {
      const help = new RegExp(escape(FLAGS[flag].help));
      const value = escape(JSON.stringify(isRepeatable(flag) ? [bad] : bad));
      // A switch takes no value on the command line (node:util refuses it); its value comes from the env twin.
      if (isSwitch(flag)) refused([`--${flag}=${bad}`], {}, new RegExp(`'--${flag}' does not take an argument`), /--help/);
      else refused([`--${flag}=${bad}`], {}, new RegExp(`^Invalid value ${value} for --${flag}: `), help);
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
    ] as const) {
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

  it('checks --tools against the tool index, listing every tool', () => {
    const message = new RegExp(`^Invalid value for --tools: unknown tool "rm_rf"\\. Tools: ${TOOL_NAMES.join(', ')}\\.$`);
    refused(['--tools', 'execute_code,rm_rf'], {}, message);
    refused([], { PYODIDE_MCP_TOOLS: 'rm_rf' }, /^Invalid value for PYODIDE_MCP_TOOLS: unknown tool "rm_rf"/);
    assert.deepEqual(run(['--tools', TOOL_NAMES.join(',')]).tools, TOOL_NAMES);
  });

  it('answers --help and --version before reading any value', () => {
    assert.deepEqual(parseConfig(['--help'], { PYODIDE_MCP_TIMEOUT: 'soon' }, CWD), { action: 'help' });
    assert.deepEqual(parseConfig(['--version', '--timeout', 'soon'], {}, CWD), { action: 'version' });
  });
});

describe('the memory budget (--max-total-memory-mb)', () => {
  /** 24 GB, heap limit 4144 MB: the default budget is 21694 MB, room for 8 sessions of 2048 MB. */
  const M24: MachineMemory = { memoryMb: 24_105, source: "this machine's memory", heapLimitMb: 4144 };

  it('lowers a default --max-sessions to what fits, and says so once with the arithmetic', () => {
    const config = run([], {}, M24);
    assert.equal(config.maxSessions, 8);
    assert.equal(config.maxSessionMemoryMb, 2048);
    assert.equal(config.memoryBudget.totalMb, 21_694);
    assert.match(config.memoryBudget.note!, /lowered --max-sessions from 16 to 8 \(defaults\)/);
    assert.match(
      config.memoryBudget.note!,
      /8 sessions \(--max-sessions\) × 2048 MB \(--max-session-memory-mb\) \+ 4144 MB .* = 20528 MB ≤ 21694 MB/,
    );
    assert.match(config.memoryBudget.note!, /90 % of 24105 MB, this machine's memory/);
    assert.equal(run(['--max-session-memory-mb', '1024'], {}, M24).maxSessions, 16, 'smaller sessions: the default fits');
  });

  it('starts with default flags on a small machine: one session, made smaller', () => {
    const config = run([], {}, { memoryMb: 2048, source: "the cgroup's memory limit", heapLimitMb: 512 });
    assert.equal(config.maxSessions, 1);
    assert.equal(config.maxSessionMemoryMb, 1331);
    assert.match(config.memoryBudget.note!, /--max-sessions from 16 to 1 and --max-session-memory-mb from 2048 to 1331/);
    assert.match(config.memoryBudget.note!, /the cgroup's memory limit/);
  });

  it('refuses a given --max-sessions that does not fit, saying what to lower', () => {
    refusedOn(
      M24,
      ['--max-sessions', '64', '--max-session-memory-mb', '4096'],
      {},
      /^The sessions do not fit in the memory budget: 64 sessions \(--max-sessions\) × 4096 MB \(--max-session-memory-mb\) \+ 4144 MB \(the server's heap limit.*\) = 266288 MB, more than 21694 MB/,
      /lower --max-sessions to at most 4, or lower --max-session-memory-mb to at most 274, or raise --max-total-memory-mb to at least 266288 \(above 90 %/,
    );
    // A given --max-sessions is never made into smaller sessions behind the operator's back.
    refusedOn(M24, ['--max-sessions', '9'], {}, /9 sessions .* = 22576 MB, more than 21694 MB/);
    refusedOn(M24, [], { PYODIDE_MCP_MAX_SESSIONS: '9' }, /^The sessions do not fit/);
  });

  it('refuses a given budget that the sessions cannot fit, and counts the server heap in it', () => {
    refusedOn(
      M24,
      ['--max-total-memory-mb', '4000'],
      {},
      /even with --max-sessions from 16 to 1 and --max-session-memory-mb from 2048 to 128 .*: 1 session \(--max-sessions\) × 128 MB .* = 4272 MB, more than 4000 MB \(--max-total-memory-mb 4000\)/,
      /To fix it, raise --max-total-memory-mb to at least 4272\.$/,
    );
    const config = run(['--max-total-memory-mb', '8192'], {}, M24);
    assert.equal(config.maxSessions, 1);
    assert.equal(run(['--max-total-memory-mb', '8192', '--max-session-memory-mb', '512'], {}, M24).maxSessions, 7);
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
      if (spec.default !== undefined) assert.ok(first?.endsWith(`(default: ${spec.default})`), `default of --${flag}`);
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

describe('docs/configuration.md', () => {
  it('holds the flag table as the flag table renders it (else: run npm run docs:config)', () => {
    const page = readFileSync(CONFIG_DOC, 'utf8');
    assert.ok(page === withCurrentTable(page), `${CONFIG_DOC} is not current: run npm run docs:config (and commit the page)`);
    // The renderer itself: every flag once, with its env twin, so a current page documents every flag.
    const table = renderFlagTable();
    for (const flag of Object.keys(FLAGS)) assert.match(table, new RegExp(`^\\| \`--${flag}\` \\| \`${envName(flag)}\` \\|`, 'm'), flag);
    assert.equal(table.split('\n').length, Object.keys(FLAGS).length + 2);
  });
});
