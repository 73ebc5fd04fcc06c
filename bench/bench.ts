/**
 * `npm run bench`: measures pyodide-mcp over the real MCP stdio transport with the SDK client, and a
 * naive baseline (a fresh worker that boots Pyodide and loads the packages for each session) in the
 * same run, with the default process isolation and thread isolation side by side. Prints a Markdown table and
 * writes bench/results/latest.json.
 *
 * Environment knobs (for a quicker run): BENCH_ROUNDS (default 1 = full), BENCH_QUICK=1, BENCH_ONLY=<section> (only
 * that section's rows: pure-snapshot, the memory snapshot that holds a pure-Python preload set; round-trip; memory;
 * on-demand, sessions created 3 s apart and ten at once; fairness, one HTTP client's latency while another floods
 * tools/list, bench/fairness.ts; history, the server with 16 sessions at their history bound).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { PACKAGE_WHEELS_DIR } from '../src/paths.js';
import { modernVersion, readModernLock, wheelClosure } from '../src/python/distribution.js';
import { userWheelsDir } from '../src/python/user-cache.js';
import { checkWheelDir } from '../src/python/wheel-check.js';
import { fairness } from './fairness.js';
import { INVENTED_PRELOAD, inventedPackages, writeMirror } from '../test/fake-wheels.js';
import { historyBound } from './history-bound.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const CLI = join(HERE, '..', 'src', 'cli.js');
const QUICK = process.env.BENCH_QUICK === '1';
const STACK = 'numpy,pandas,matplotlib,sympy';
type Isolation = 'process' | 'thread';

interface Row {
  metric: string;
  p50: number | null;
  p95: number | null;
  p99?: number | null;
  n: number;
  unit: string;
  target?: string;
  note?: string;
}
const rows: Row[] = [];
const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
function record(metric: string, values: number[], unit: string, target?: string, note?: string, withP99 = false): Row {
  const row: Row = { metric, p50: percentile(values, 50), p95: percentile(values, 95), n: values.length, unit, target, note };
  if (withP99) row.p99 = percentile(values, 99);
  rows.push(row);
  log(
    `${metric}: p50 ${row.p50?.toFixed(2)} ${unit}, p95 ${row.p95?.toFixed(2)}${withP99 ? `, p99 ${row.p99?.toFixed(2)}` : ''} (n=${values.length})`,
  );
  return row;
}

interface Server {
  client: Client;
  pid: number;
  call: (name: string, args?: Record<string, unknown>) => Promise<Record<string, any>>;
  close: () => Promise<void>;
  /** The server's stderr, by line (the last 1,000). */
  logs: string[];
}

async function startServer(flags: string[], preload: string): Promise<Server> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, ...flags],
    env: { PATH: process.env.PATH ?? '', PYODIDE_MCP_PRELOAD: preload },
    stderr: 'pipe',
  });
  // The server's log, read as it comes (an unread pipe would block the server): some sections wait for a line.
  const logs: string[] = [];
  let partial = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    logs.push(...lines);
    if (logs.length > 1000) logs.splice(0, logs.length - 1000);
  });
  const client = new Client({ name: 'pyodide-mcp-bench', version: '0' });
  try {
    await client.connect(transport);
  } catch (error) {
    // A server that exits at start (a refused flag, the memory budget) says why on stderr: show it, not only "Connection closed".
    if (partial) logs.push(partial);
    throw new Error(`the server did not start (${(error as Error).message}); its last lines:\n${logs.slice(-10).join('\n')}`, {
      cause: error,
    });
  }
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 })) as CallToolResult;
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    return result.structuredContent as Record<string, any>;
  };
  return { client, pid: transport.pid!, call, close: () => client.close(), logs };
}

/** A kB figure of a process and all its descendants (session processes under --isolation process), in MB. */
function treeMb(pid: number, file: string, field: RegExp): number {
  let total = Number(field.exec(readFileSync(`/proc/${pid}/${file}`, 'utf8'))![1]) / 1024;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    for (const child of children ? children.split(/\s+/) : []) total += treeMb(Number(child), file, field);
  }
  return total;
}

/** Resident memory of a process tree. */
const rssMb = (pid: number) => treeMb(pid, 'status', /VmRSS:\s+(\d+)/);

/**
 * Proportional set size of a process tree: each shared page (the node binary's code, shared libraries) counted
 * once across all processes that map it, instead of once in every one as RSS does. What adding a session costs.
 */
const pssMb = (pid: number) => treeMb(pid, 'smaps_rollup', /^Pss:\s+(\d+)/m);

async function waitForWarm(server: Server, count: number, preloaded = false): Promise<void> {
  const until = Date.now() + 180_000;
  while ((await server.call('server_info'))[preloaded ? 'warm_preloaded' : 'warm_sessions'] < count) {
    if (Date.now() > until) throw new Error('warm pool did not refill');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await work();
  return [performance.now() - started, value];
}

/** 1. create_session with a warm pool hit, and 3. the first scientific call in such a session. */
async function warmCreate(preload: string, label: string, isolation: Isolation): Promise<number> {
  const server = await startServer(['--warm-sessions', '1', '--isolation', isolation], preload);
  const creates: number[] = [];
  const firstUse: number[] = [];
  const n = QUICK ? 3 : preload === 'none' ? 10 : 5;
  for (let i = 0; i < n; i++) {
    // A fresh warm session: booted and (with a stack) done importing it in the background.
    await waitForWarm(server, 1, preload !== 'none');
    const [ms, created] = await timed(() => server.call('create_session'));
    creates.push(ms);
    if (preload !== 'none') {
      const [useMs, reply] = await timed(() =>
        server.call('execute_code', {
          session_id: created.session_id,
          code: 'import numpy as np, pandas as pd, matplotlib.pyplot as plt\ndf = pd.DataFrame({"x": np.arange(10)})\nplt.plot(df.x)\nfloat(df.x.mean())',
        }),
      );
      if (reply.result !== '4.5') throw new Error(`unexpected result ${reply.result}`);
      firstUse.push(useMs);
    }
    await server.call('close_session', { session_id: created.session_id });
  }
  await server.close();
  const row = record(`create_session, warm pool hit (${label}, ${isolation})`, creates, 'ms', '< 50 ms');
  if (firstUse.length > 0)
    record(
      `first execute_code using numpy+pandas+matplotlib (${label}, ${isolation}, fresh warm session)`,
      firstUse,
      'ms',
      'no import cost',
      'includes the first plot',
    );
  return row.p50!;
}

/** 1. create_session with the pool disabled. */
async function coldCreate(preload: string, label: string): Promise<void> {
  const server = await startServer(['--warm-sessions', '0'], preload);
  const times: number[] = [];
  const n = QUICK ? 2 : preload === 'none' ? 5 : 3;
  for (let i = 0; i < n; i++) {
    const [ms, created] = await timed(() => server.call('create_session'));
    times.push(ms);
    await server.call('close_session', { session_id: created.session_id });
  }
  await server.close();
  record(`create_session, cold (${label})`, times, 'ms');
}

/**
 * 2. Round trip of execute_code "1+1" in a warm session: the first calls of a new server, then the steady state.
 * Why two rows: the server's and the client's JavaScript is compiled by V8's optimizing tiers during the first
 * ~1,500 calls (measured: 9-22 of the first 500 calls over 3 ms against 2-5 per 500 after 2,000, with the session
 * warmed up either way), which a server that has been running a while has behind it.
 */
async function roundTrip(isolation: Isolation): Promise<void> {
  const server = await startServer(['--warm-sessions', '1', '--isolation', isolation], 'none');
  const { session_id } = await server.call('create_session');
  // Steady state of the session too: the pool's replacement boot (1-2 s of CPU on another core) would otherwise
  // overlap the first calls (measured with it overlapping, 126-140 of 2,000 calls took over 3 ms, against 45-59 once it
  // had finished), and so would the two sessions' warm-ups (0.3 s each, after the boot).
  await waitForWarm(server, 1);
  const until = Date.now() + 60_000;
  while (server.logs.filter((line) => line.includes('warmed up:')).length < 2) {
    if (Date.now() > until) throw new Error('the sessions did not warm up');
    await new Promise((r) => setTimeout(r, 50));
  }
  const calls = async (n: number) => {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const [ms, reply] = await timed(() => server.call('execute_code', { session_id, code: '1+1' }));
      if (reply.result !== '2') throw new Error('wrong result');
      times.push(ms);
    }
    return times;
  };
  const first = await calls(QUICK ? 300 : 1500);
  const steady = await calls(QUICK ? 300 : 2000);
  await server.close();
  const label = `stdio + SDK client, ${isolation}`;
  record(
    `execute_code "1+1" round trip, the first ${first.length} calls of a new server (${label})`,
    first,
    'ms',
    undefined,
    undefined,
    true,
  );
  record(
    `execute_code "1+1" round trip, steady state: the next ${steady.length} (${label})`,
    steady,
    'ms',
    'p50 < 0.8 ms, p99 < 3 ms',
    undefined,
    true,
  );
}

/** 4. Time from the deadline to the reply: interruptible loop, and a loop that ignores interrupts. */
async function timeoutLatency(): Promise<void> {
  const server = await startServer(['--warm-sessions', '1', '--interrupt-grace', '500'], 'none');
  const interruptible: number[] = [];
  const terminated: number[] = [];
  const { session_id } = await server.call('create_session');
  for (let i = 0; i < (QUICK ? 3 : 10); i++) {
    const [ms, reply] = await timed(() => server.call('execute_code', { session_id, code: 'while True: pass', timeout_seconds: 0.5 }));
    if (reply.error?.type !== 'TimeoutError') throw new Error('expected a timeout');
    interruptible.push(ms - 500);
  }
  for (let i = 0; i < (QUICK ? 2 : 4); i++) {
    await waitForWarm(server, 1);
    const fresh = await server.call('create_session');
    const code = 'while True:\n    try:\n        while True: pass\n    except KeyboardInterrupt:\n        pass';
    const [ms] = await timed(() => server.call('execute_code', { session_id: fresh.session_id, code, timeout_seconds: 0.5 }));
    terminated.push(ms - 500);
  }
  await server.close();
  record('timeout: deadline → reply, interruptible loop', interruptible, 'ms', '< 100 ms');
  log(`timeout: interruptible loop, each (ms after the deadline): ${interruptible.map((ms) => ms.toFixed(0)).join(', ')}`);
  record('timeout: deadline → reply, worker terminated (grace 500 ms)', terminated, 'ms', undefined, 'grace period included');
}

/** 5. Memory per idle session, and how many fit in 8 GB. */
async function memory(preload: string, label: string, isolation: Isolation): Promise<void> {
  // At most 8 sessions are made; 1024 MB each (an idle scientific session is about 500) keeps them within the default
  // memory budget (--max-total-memory-mb) on a 24 GB machine: 8 × 1024 MB + the server's heap limit.
  const server = await startServer(
    ['--warm-sessions', '0', '--max-sessions', '8', '--max-session-memory-mb', '1024', '--isolation', isolation],
    preload,
  );
  await new Promise((r) => setTimeout(r, 500));
  const base = rssMb(server.pid);
  const basePss = pssMb(server.pid);
  const k = QUICK ? 2 : preload === 'none' ? 8 : 4;
  for (let i = 0; i < k; i++) {
    const { session_id } = await server.call('create_session');
    // Sessions are handed out before their preload is imported: this waits for it (or imports it now).
    if (preload !== 'none') await server.call('execute_code', { session_id, code: `import ${preload}\nimport matplotlib.pyplot` });
  }
  await new Promise((r) => setTimeout(r, 1000));
  const total = rssMb(server.pid);
  const totalPss = pssMb(server.pid);
  await server.close();
  const per = (total - base) / k;
  const perPss = (totalPss - basePss) / k;
  rows.push({
    metric: `RSS per idle session (${label}, ${isolation})`,
    p50: per,
    p95: null,
    n: k,
    unit: 'MB',
    ...(preload === 'none' ? {} : { target: '≤ 250 MB' }),
    note: `server alone ${base.toFixed(0)} MB; ${k} sessions ${total.toFixed(0)} MB`,
  });
  rows.push({
    metric: `PSS per idle session (${label}, ${isolation})`,
    p50: perPss,
    p95: null,
    n: k,
    unit: 'MB',
    note: 'shared pages (node binary, libraries) counted once across processes',
  });
  rows.push({
    metric: `idle sessions in 8 GB (${label}, ${isolation})`,
    p50: Math.floor((8192 - base) / per),
    p95: null,
    n: k,
    unit: 'sessions',
    target: '≥ 30',
    note: `by RSS; by PSS ${Math.floor((8192 - basePss) / perPss)}`,
  });
  log(`memory ${label}, ${isolation}: ${per.toFixed(1)} MB RSS, ${perPss.toFixed(1)} MB PSS per session`);
}

/** The server with default flags and its warm pool, idle: what an operator pays before any agent calls. */
async function idleServer(): Promise<void> {
  const server = await startServer([], STACK);
  await waitForWarm(server, 2, true);
  // Idle: long enough for V8's memory reducer (it starts 8 s after the last allocation burst).
  await new Promise((r) => setTimeout(r, 12_000));
  const rss = rssMb(server.pid);
  const pss = pssMb(server.pid);
  await server.close();
  rows.push({
    metric: 'server idle with the default warm pool (default flags, scientific stack preloaded, process)',
    p50: rss,
    p95: null,
    n: 1,
    unit: 'MB',
    target: '≤ 600 MB',
    note: `RSS of the process tree, server and 2 warm sessions with the stack imported; PSS ${pss.toFixed(0)} MB`,
  });
  log(`idle server with its pool: ${rss.toFixed(0)} MB RSS, ${pss.toFixed(0)} MB PSS`);
}

/** 6. Two CPU-bound sessions in parallel vs one after the other. */
async function parallelism(): Promise<void> {
  const server = await startServer(['--warm-sessions', '2'], 'none');
  const [a, b] = [await server.call('create_session'), await server.call('create_session')];
  // The pool refills in the background; let it finish so that it does not compete for the cores.
  await waitForWarm(server, 2);
  const code = 'total = 0\nfor i in range(8_000_000):\n    total += i * i\ntotal';
  const run = (s: Record<string, any>) => server.call('execute_code', { session_id: s.session_id, code, timeout_seconds: 120 });
  await run(a);
  const [sequential] = await timed(async () => {
    await run(a);
    await run(b);
  });
  const [parallel] = await timed(() => Promise.all([run(a), run(b)]));
  await server.close();
  rows.push({
    metric: 'two CPU-bound sessions: sequential / parallel',
    p50: sequential / parallel,
    p95: null,
    n: 1,
    unit: '× speed-up',
    target: '≥ 1.8',
    note: `sequential ${sequential.toFixed(0)} ms, parallel ${parallel.toFixed(0)} ms`,
  });
  log(`speed-up ${(sequential / parallel).toFixed(2)}`);
}

/** 7. Naive baseline: a fresh worker that boots Pyodide and loads the packages, then runs a cell. */
async function naiveBaseline(preload: string, label: string, ourP50: number): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i < (QUICK ? 1 : 3); i++) {
    const [ms] = await timed(
      () =>
        new Promise<void>((resolve, reject) => {
          const worker = new Worker(new URL('./naive-worker.js', import.meta.url), {
            workerData: { preload: preload === 'none' ? [] : preload.split(',') },
          });
          worker.once('message', (m: { ok: boolean; error?: string }) => {
            void worker.terminate();
            if (m.ok) resolve();
            else reject(new Error(m.error));
          });
          worker.once('error', reject);
        }),
    );
    times.push(ms);
  }
  const row = record(`naive baseline: fresh loadPyodide + packages per session (${label})`, times, 'ms');
  rows.push({
    metric: `warm create vs naive baseline (${label})`,
    p50: row.p50! / ourP50,
    p95: null,
    n: times.length,
    unit: '× faster',
    target: '≥ 100',
  });
}

/** Sessions on demand, default flags: an agent creating 5 sessions 3 s apart, then 10 at once on a fresh server. */
async function sessionsOnDemand(): Promise<void> {
  const cell = { code: 'print(6*7)' };
  const server = await startServer([], STACK);
  await waitForWarm(server, 2);
  const creates: number[] = [];
  const firstCells: number[] = [];
  for (let i = 0; i < 5; i++) {
    const [ms, created] = await timed(() => server.call('create_session'));
    creates.push(ms);
    const [cellMs] = await timed(() => server.call('execute_code', { session_id: created.session_id, ...cell }));
    firstCells.push(cellMs);
    if (i < 4) await new Promise((r) => setTimeout(r, 3000));
  }
  await server.close();
  const note = `each create ${creates.map((v) => v.toFixed(0)).join(', ')} ms; worst ${Math.max(...creates).toFixed(0)} ms`;
  record(
    'sessions on demand: 5 create_session 3 s apart (default flags, legacy stack, process)',
    creates,
    'ms',
    '< 50 ms median, < 2 s worst',
    note,
  );
  record('sessions on demand: print(6*7) right after each of those creates', firstCells, 'ms');
  const burst = await startServer([], STACK);
  await waitForWarm(burst, 2);
  const [, times] = await timed(() =>
    Promise.all(
      Array.from({ length: 10 }, async () => {
        const [ms, created] = await timed(() => burst.call('create_session'));
        await burst.call('execute_code', { session_id: created.session_id, ...cell });
        return ms;
      }),
    ),
  );
  await burst.close();
  record(
    'sessions on demand: 10 create_session at once (default flags), each',
    times,
    'ms',
    'all within one cold boot',
    `slowest ${Math.max(...times).toFixed(0)} ms`,
  );
}

/** The first execute_code after the server starts (from the spawn of `node dist/src/cli.js`), and server_info then. */
async function firstCall(): Promise<void> {
  const firsts: number[] = [];
  const infos: number[] = [];
  for (let i = 0; i < (QUICK ? 1 : 3); i++) {
    const started = performance.now();
    const server = await startServer([], STACK);
    const [infoMs] = await timed(() => server.call('server_info'));
    infos.push(infoMs);
    const reply = await server.call('execute_code', { code: 'print(6*7)' });
    if (reply.stdout !== '42\n') throw new Error('wrong output');
    firsts.push(performance.now() - started);
    await server.close();
  }
  record('first execute_code print(6*7) after server start (default flags, from spawn)', firsts, 'ms', '< 3000 ms');
  record('server_info right after server start', infos, 'ms', 'at once');
}

/** Scale curve: k sessions each running a numpy workload at once (preload numpy): wall time and memory. */
async function scaleCurve(): Promise<void> {
  const code =
    'import numpy as np\na = np.random.default_rng(1).random((400, 400)) if hasattr(np.random, "default_rng") else np.random.rand(400, 400)\nfor _ in range(5):\n    a = (a @ a) / a.sum()\nfloat(a.sum())';
  for (const k of QUICK ? [1, 4] : [1, 4, 16]) {
    // 16 sessions of up to 1024 MB + the server's heap limit fit the default memory budget of a 24 GB machine.
    const server = await startServer(['--warm-sessions', '0', '--max-sessions', String(k), '--max-session-memory-mb', '1024'], 'numpy');
    const ids = await Promise.all(Array.from({ length: k }, async () => (await server.call('create_session')).session_id as string));
    // Numpy imported in each first (its load is not the workload).
    await Promise.all(ids.map((session_id) => server.call('execute_code', { session_id, code: 'import numpy' })));
    const [ms] = await timed(() =>
      Promise.all(ids.map((session_id) => server.call('execute_code', { session_id, code, timeout_seconds: 300 }))),
    );
    const rss = rssMb(server.pid);
    await server.close();
    rows.push({
      metric: `scale: ${k} session(s) running a numpy workload at once (legacy, numpy)`,
      p50: ms,
      p95: null,
      n: k,
      unit: 'ms',
      note: `RSS of server + sessions ${rss.toFixed(0)} MB`,
    });
    log(`scale ${k}: ${ms.toFixed(0)} ms, ${rss.toFixed(0)} MB`);
  }
}

/** A Jupyter kernel on this machine (when python3 with ipykernel and jupyter_client is installed), same metrics. */
async function jupyterComparison(): Promise<void> {
  const script = join(HERE, '..', '..', 'bench', 'jupyter_kernel.py');
  // Debian's python3 (where python3-ipykernel installs) may not be the first python3 on PATH (pyenv, venvs).
  let result = spawnSync('python3', [script], { encoding: 'utf8', timeout: 180_000 });
  if (result.status !== 0) result = spawnSync('/usr/bin/python3', [script], { encoding: 'utf8', timeout: 180_000 });
  if (result.status !== 0) {
    log(`jupyter comparison not measured: ${(result.stderr || result.error?.message || '').trim().split('\n').pop()}`);
    for (const metric of ['start to ready', 'import numpy, pandas, matplotlib, sympy', '"1+1" round trip'])
      rows.push({
        metric: `Jupyter kernel (python3, jupyter_client): ${metric}`,
        p50: null,
        p95: null,
        n: 0,
        unit: 'ms',
        note: 'not measured (no ipykernel/jupyter_client installed)',
      });
    return;
  }
  const m = JSON.parse(result.stdout) as { start_ms: number; import_ms: number; rtt_ms: number[] };
  rows.push({ metric: 'Jupyter kernel (python3, jupyter_client): start to ready', p50: m.start_ms, p95: null, n: 1, unit: 'ms' });
  rows.push({
    metric: 'Jupyter kernel (python3, jupyter_client): import numpy, pandas, matplotlib, sympy',
    p50: m.import_ms,
    p95: null,
    n: 1,
    unit: 'ms',
  });
  record('Jupyter kernel (python3, jupyter_client): "1+1" round trip', m.rtt_ms, 'ms', undefined, undefined, true);
}

/**
 * A ready session on the modern runtime with a pure-Python preload set: create_session until the set is imported, with
 * the memory snapshot that holds it imported (files unpacked again from the same wheels) and without (--snapshot-dir
 * none). Pool off, so every create boots. On the invented set (wheels built here, test/fake-wheels.ts) always; on
 * sympy (pure Python, with mpmath) only when its verified wheels are in the package's wheels/ or the per-user cache.
 */
async function pureSnapshot(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'bench-pure-'));
  try {
    const mirror = join(root, 'wheels');
    const lockFile = join(root, 'lock.json');
    writeMirror(mirror, lockFile, inventedPackages());
    const code = `import ${INVENTED_PRELOAD.join(', ')}`;
    await readyWithAndWithout(
      `invented pure-Python set: ${INVENTED_PRELOAD.length} packages + 1 dependency, 123 modules`,
      INVENTED_PRELOAD.join(','),
      code,
      ['--wheels-dir', mirror, '--lock-file', lockFile],
      root,
    );

    const lock = readModernLock();
    const needed = wheelClosure(lock, ['sympy']).map((pkg) => pkg.file_name);
    const dir = [
      { path: PACKAGE_WHEELS_DIR, private: false },
      { path: userWheelsDir(process.env, modernVersion()), private: true },
    ].find((candidate) => {
      const verified = checkWheelDir(candidate, lock).verified;
      return needed.every((file) => verified.has(file));
    });
    if (dir) {
      await readyWithAndWithout('sympy', 'sympy', 'import sympy', ['--wheels-dir', dir.path], root);
    } else {
      for (const how of ['without snapshot', 'from the snapshot'])
        rows.push({
          metric: `ready modern session, create_session → preload imported (sympy, ${how})`,
          p50: null,
          p95: null,
          n: 0,
          unit: 'ms',
          note: 'not measured (no verified sympy/mpmath wheels: run `npx pyodide-mcp fetch-wheels --preload sympy`)',
        });
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function readyWithAndWithout(label: string, preload: string, code: string, flags: string[], root: string): Promise<void> {
  const n = QUICK ? 2 : 4;
  const serve = (snapshotDir: string) =>
    startServer(['--warm-sessions', '0', '--runtime', 'modern', '--snapshot-dir', snapshotDir, ...flags], preload);
  /** create_session, then a cell importing the set (it waits for the session's preload). */
  const ready = async (server: Server): Promise<number> => {
    const [ms, created] = await timed(async () => {
      const created = await server.call('create_session');
      const reply = await server.call('execute_code', { session_id: created.session_id, code });
      if (reply.error) throw new Error(JSON.stringify(reply.error));
      return created;
    });
    await server.call('close_session', { session_id: created.session_id });
    return ms;
  };
  const series = async (server: Server): Promise<number[]> => {
    const times: number[] = [];
    for (let i = 0; i < n; i++) times.push(await ready(server));
    await server.close();
    return times;
  };
  record(`ready modern session, create_session → preload imported (${label}, without snapshot)`, await series(await serve('none')), 'ms');
  // The first session of a server makes the snapshot; the sessions measured (a new server) boot from it.
  const snapshotDir = join(root, `snapshots-${preload.replace(/\W/g, '_')}`);
  const maker = await serve(snapshotDir);
  await ready(maker);
  await maker.close();
  if (!(existsSync(snapshotDir) && readdirSync(snapshotDir).some((f) => f.endsWith('.snapshot')))) throw new Error('no snapshot was made');
  record(
    `ready modern session, create_session → preload imported (${label}, from the snapshot)`,
    await series(await serve(snapshotDir)),
    'ms',
    undefined,
    'snapshot holds the set imported; its files unpacked again from the same verified wheels',
  );
}

async function main(): Promise<void> {
  const started = Date.now();
  // Partial runs, for working on one target: their rows are written beside the full run's, never over it.
  const sections: Record<string, () => Promise<void>> = {
    'pure-snapshot': pureSnapshot,
    'round-trip': async () => {
      await roundTrip('process');
      await roundTrip('thread');
    },
    'on-demand': sessionsOnDemand,
    fairness: () => fairness(CLI, record, log),
    timeout: timeoutLatency,
    memory: async () => {
      await memory('none', 'modern, no preload', 'process');
      await memory(STACK, 'legacy, scientific stack', 'process');
      await idleServer();
    },
    history: () => historyBound({ startServer, push: (row) => rows.push(row), log }),
  };
  const only = process.env.BENCH_ONLY;
  if (only) {
    if (!sections[only]) throw new Error(`BENCH_ONLY=${only}: not a section (${Object.keys(sections).join(', ')})`);
    await sections[only]();
    report(started);
    return;
  }
  // The default isolation (process) and thread isolation side by side: what the security boundary costs.
  const modernWarm = await warmCreate('none', 'modern, no preload', 'process');
  await warmCreate('none', 'modern, no preload', 'thread');
  const legacyWarm = await warmCreate(STACK, 'legacy, scientific stack', 'process');
  await warmCreate(STACK, 'legacy, scientific stack', 'thread');
  await coldCreate('none', 'modern, no preload');
  await coldCreate(STACK, 'legacy, scientific stack');
  await roundTrip('process');
  await roundTrip('thread');
  await timeoutLatency();
  await memory('none', 'modern, no preload', 'process');
  await memory('none', 'modern, no preload', 'thread');
  await memory(STACK, 'legacy, scientific stack', 'process');
  await memory(STACK, 'legacy, scientific stack', 'thread');
  await idleServer();
  await parallelism();
  await naiveBaseline('none', 'modern, no preload', modernWarm);
  await naiveBaseline(STACK, 'legacy, scientific stack', legacyWarm);
  await sessionsOnDemand();
  await firstCall();
  await scaleCurve();
  await jupyterComparison();
  await pureSnapshot();

  report(started);
}

/** Prints the Markdown table and writes bench/results/latest.{json,md} (latest-<BENCH_ONLY>.… for a partial run). */
function report(started: number): void {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  const fmt = (v: number | null | undefined) => (v === null || v === undefined ? '' : v >= 100 ? v.toFixed(0) : v.toFixed(2));
  const table = [
    `Machine: ${machine}; ${new Date().toISOString().slice(0, 10)}; ${((Date.now() - started) / 1000).toFixed(0)} s`,
    '',
    '| metric | p50 | p95 | p99 | n | unit | target | note |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) => `| ${r.metric} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} | ${r.n} | ${r.unit} | ${r.target ?? ''} | ${r.note ?? ''} |`,
    ),
  ].join('\n');
  process.stdout.write(table + '\n');
  const out = join(HERE, '..', '..', 'bench', 'results');
  mkdirSync(out, { recursive: true });
  // A partial run (BENCH_ONLY) does not replace the full run's results.
  const name = process.env.BENCH_ONLY ? `latest-${process.env.BENCH_ONLY}` : 'latest';
  writeFileSync(join(out, `${name}.json`), JSON.stringify({ machine, date: new Date().toISOString(), rows }, null, 2));
  writeFileSync(join(out, `${name}.md`), table + '\n');
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});
