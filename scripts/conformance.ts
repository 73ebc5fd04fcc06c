/**
 * `npm run test:conformance`: the official MCP conformance suite (@modelcontextprotocol/conformance, a pinned
 * devDependency) run against our Streamable HTTP server. Starts the built command with `--http 127.0.0.1:0` (and an
 * --instance-id, so the prefixed MCP session ids are what the suite sees), runs the suite's server scenarios against
 * it with test/conformance/baseline.yml as the expected failures (the scenarios that need the reference server's own
 * test tools, resources and prompts), and exits with the suite's status: 1 on a failure the baseline does not list,
 * and on a listed scenario that now passes (a stale entry). Nothing leaves this machine: the server listens on
 * loopback, and the suite's server scenarios talk only to the URL they are given. Needs Node 22+ (the suite's
 * engines); CI runs it on its Node 22 binary (.ci/run). Not part of the package.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PACKAGE_ROOT } from '../src/paths.js';

const BASELINE = join(PACKAGE_ROOT, 'test', 'conformance', 'baseline.yml');
const CLI = join(PACKAGE_ROOT, 'dist', 'src', 'cli.js');
/** How long the server may take to say where it listens. */
const START_TIMEOUT_MS = 60_000;
/** The whole suite takes a few seconds; this only stops a hung run. */
const SUITE_TIMEOUT_MS = 10 * 60_000;

/** The suite's command-line entry (its package exports nothing else). */
function suiteEntry(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('@modelcontextprotocol/conformance/package.json');
  return join(dirname(manifest), (require(manifest) as { bin: { conformance: string } }).bin.conformance);
}

async function main(): Promise<number> {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 22) {
    console.error(
      `conformance: the suite needs Node 22 or newer (this is ${process.version}); run it with a Node 22+ binary, as .ci/run does.`,
    );
    return 2;
  }
  const server = spawn(process.execPath, [CLI, '--http', '127.0.0.1:0', '--instance-id', 'conformance'], {
    env: { PATH: process.env.PATH ?? '', PYODIDE_MCP_PRELOAD: 'none', PYODIDE_MCP_WARM_SESSIONS: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
  const output = mkdtempSync(join(tmpdir(), 'pyodide-mcp-conformance-'));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not start in ${START_TIMEOUT_MS} ms:\n${log}`)), START_TIMEOUT_MS);
      server.stderr.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(log);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      void exited.then((code) => reject(new Error(`the server exited (${code}) before listening:\n${log}`)));
    });
    console.error(`conformance: server scenarios against ${url} (baseline ${BASELINE})`);
    const suite = spawn(process.execPath, [suiteEntry(), 'server', '--url', url, '--expected-failures', BASELINE, '-o', output], {
      stdio: 'inherit',
      timeout: SUITE_TIMEOUT_MS,
    });
    const code = await new Promise<number | null>((resolve) => suite.on('exit', resolve));
    if (code !== 0) console.error(`conformance: failed (exit ${code}); the server's log:\n${log}`);
    return code ?? 1;
  } finally {
    server.kill('SIGTERM');
    await exited;
    rmSync(output, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`conformance: ${(error as Error)?.stack ?? String(error)}`);
    process.exit(1);
  },
);
