/**
 * BENCH_ONLY=jupyter: the same metrics for a Jupyter kernel on this machine, when one is installed.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Section } from '../section.js';
import { BENCH_SOURCE_DIR } from '../server.js';
import { log, type ResultTable } from '../table.js';

/** What bench/jupyter_kernel.py measured, or why it could not (no ipykernel/jupyter_client installed). */
export type JupyterRun =
  { start_ms: number; import_ms: number | null; import_missing: string | null; rtt_ms: number[] } | { missing: string };

/** Runs bench/jupyter_kernel.py: a kernel through jupyter_client, the stack imported, 500 "1+1" round trips. */
export function runJupyterKernel(): JupyterRun {
  const script = join(BENCH_SOURCE_DIR, 'jupyter_kernel.py');
  // Debian's python3 (where python3-ipykernel installs) may not be the first python3 on PATH (pyenv, venvs).
  let result = spawnSync('python3', [script], { encoding: 'utf8', timeout: 180_000 });
  if (result.status !== 0) result = spawnSync('/usr/bin/python3', [script], { encoding: 'utf8', timeout: 180_000 });
  if (result.status !== 0) return { missing: (result.stderr || result.error?.message || '').trim().split('\n').pop() ?? '' };
  return JSON.parse(result.stdout) as JupyterRun;
}

/** A Jupyter kernel on this machine (when python3 with ipykernel and jupyter_client is installed), same metrics. */
export async function jupyterComparison(table: ResultTable): Promise<void> {
  const m = runJupyterKernel();
  if ('missing' in m) {
    log(`jupyter comparison not measured: ${m.missing}`);
    for (const metric of ['start to ready', 'import numpy, pandas, matplotlib, sympy', '"1+1" round trip'])
      table.push({
        metric: `Jupyter kernel (python3, jupyter_client): ${metric}`,
        p50: null,
        p95: null,
        n: 0,
        unit: 'ms',
        note: 'not measured (no ipykernel/jupyter_client installed)',
      });
    return;
  }
  table.push({ metric: 'Jupyter kernel (python3, jupyter_client): start to ready', p50: m.start_ms, p95: null, n: 1, unit: 'ms' });
  table.push({
    metric: 'Jupyter kernel (python3, jupyter_client): import numpy, pandas, matplotlib, sympy',
    p50: m.import_ms,
    p95: null,
    n: m.import_ms === null ? 0 : 1,
    unit: 'ms',
    ...(m.import_missing ? { note: `not measured: the kernel's Python lacks the stack (${m.import_missing})` } : {}),
  });
  table.record('Jupyter kernel (python3, jupyter_client): "1+1" round trip', m.rtt_ms, 'ms', undefined, undefined, true);
}

export const section: Section = { name: 'jupyter', inFullRun: true, run: ({ table }) => jupyterComparison(table) };
