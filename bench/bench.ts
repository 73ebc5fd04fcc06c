/**
 * `npm run bench`: measures pyodide-mcp over the real MCP stdio transport with the SDK client, and a naive baseline
 * (a fresh worker that boots Pyodide and loads the packages for each session) in the same run, with the default
 * process isolation and thread isolation side by side. The runner: each section (bench/sections/<name>.ts) measures
 * into one table, which is printed as Markdown and written to bench/results/ (latest, and dated: docs/benchmarks.md).
 *
 * Environment knobs: BENCH_QUICK=1 (fewer samples), BENCH_ONLY=<section> (only that section's rows; fairness and
 * history run only this way).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import type { BenchContext, Section } from './section.js';
import { section as baseline } from './sections/baseline.js';
import { section as coldCreate } from './sections/cold-create.js';
import { section as compiledLoad } from './sections/compiled-load.js';
import { section as fairness } from './sections/fairness.js';
import { section as firstCall } from './sections/first-call.js';
import { section as foreground } from './sections/foreground.js';
import { section as history } from './sections/history.js';
import { section as jupyter } from './sections/jupyter.js';
import { section as memory } from './sections/memory.js';
import { section as onDemand } from './sections/on-demand.js';
import { section as parallelism } from './sections/parallelism.js';
import { section as pureSnapshot } from './sections/pure-snapshot.js';
import { section as roundTrip } from './sections/round-trip.js';
import { section as scale } from './sections/scale.js';
import { section as timeout } from './sections/timeout.js';
import { section as viewSection } from './sections/view.js';
import { section as warmCreate } from './sections/warm-create.js';
import { BENCH_SOURCE_DIR } from './server.js';
import { ResultTable, type Row } from './table.js';

/** In the order of a full run (the baseline compares with warm-create's figures, so it comes after). */
const SECTIONS: readonly Section[] = [
  warmCreate,
  coldCreate,
  roundTrip,
  timeout,
  memory,
  parallelism,
  baseline,
  onDemand,
  firstCall,
  foreground,
  scale,
  jupyter,
  pureSnapshot,
  compiledLoad,
  fairness,
  history,
  viewSection,
];

async function main(): Promise<void> {
  const started = Date.now();
  const only = process.env.BENCH_ONLY;
  const selected = only ? SECTIONS.filter((section) => section.name === only) : SECTIONS.filter((section) => section.inFullRun);
  if (only && selected.length === 0) {
    throw new Error(`BENCH_ONLY=${only}: not a section (${SECTIONS.map((section) => section.name).join(', ')})`);
  }
  const context: BenchContext = { table: new ResultTable(), full: !only, warmCreateP50: {} };
  for (const section of selected) await section.run(context);
  report(context.table.rows, only ?? 'all', started);
}

/**
 * Prints the Markdown table and writes it to bench/results/: `latest.{json,md}` (`latest-<section>.…` for a partial
 * run, so it never replaces the full run's), and the same under a dated name that no later run overwrites.
 */
function report(rows: readonly Row[], what: string, started: number): void {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  const date = new Date().toISOString();
  const fmt = (v: number | null | undefined) => (v === null || v === undefined ? '' : v >= 100 ? v.toFixed(0) : v.toFixed(2));
  const table = [
    `Machine: ${machine}; ${date.slice(0, 10)}; ${((Date.now() - started) / 1000).toFixed(0)} s`,
    '',
    '| metric | p50 | p95 | p99 | n | unit | target | note |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) => `| ${r.metric} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} | ${r.n} | ${r.unit} | ${r.target ?? ''} | ${r.note ?? ''} |`,
    ),
  ].join('\n');
  process.stdout.write(table + '\n');
  const out = join(BENCH_SOURCE_DIR, 'results');
  mkdirSync(out, { recursive: true });
  const json = JSON.stringify({ machine, date, section: what, rows }, null, 2);
  const write = (name: string) => {
    writeFileSync(join(out, `${name}.json`), json);
    writeFileSync(join(out, `${name}.md`), table + '\n');
  };
  write(what === 'all' ? 'latest' : `latest-${what}`);
  // <date>-<section>, then -2, -3… for a second run of the same section on the same day.
  const dated = `${date.slice(0, 10)}-${what}`;
  let name = dated;
  for (let n = 2; existsSync(join(out, `${name}.json`)); n++) name = `${dated}-${n}`;
  write(name);
  process.stderr.write(`[bench] results: ${join(out, `${name}.json`)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});
