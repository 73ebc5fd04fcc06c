/**
 * BENCH_ONLY=jupyter: the same metrics for a Jupyter kernel on this machine, when one is installed.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { Section } from '../section.js';
import { BENCH_SOURCE_DIR } from '../server.js';
import { log, type ResultTable } from '../table.js';

/** A Jupyter kernel on this machine (when python3 with ipykernel and jupyter_client is installed), same metrics. */
export async function jupyterComparison(table: ResultTable): Promise<void> {
  const script = join(BENCH_SOURCE_DIR, 'jupyter_kernel.py');
  // Debian's python3 (where python3-ipykernel installs) may not be the first python3 on PATH (pyenv, venvs).
  let result = spawnSync('python3', [script], { encoding: 'utf8', timeout: 180_000 });
  if (result.status !== 0) result = spawnSync('/usr/bin/python3', [script], { encoding: 'utf8', timeout: 180_000 });
  if (result.status !== 0) {
    log(`jupyter comparison not measured: ${(result.stderr || result.error?.message || '').trim().split('\n').pop()}`);
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
  const m = JSON.parse(result.stdout) as { start_ms: number; import_ms: number; rtt_ms: number[] };
  table.push({ metric: 'Jupyter kernel (python3, jupyter_client): start to ready', p50: m.start_ms, p95: null, n: 1, unit: 'ms' });
  table.push({
    metric: 'Jupyter kernel (python3, jupyter_client): import numpy, pandas, matplotlib, sympy',
    p50: m.import_ms,
    p95: null,
    n: 1,
    unit: 'ms',
  });
  table.record('Jupyter kernel (python3, jupyter_client): "1+1" round trip', m.rtt_ms, 'ms', undefined, undefined, true);
}

export const section: Section = { name: 'jupyter', inFullRun: true, run: ({ table }) => jupyterComparison(table) };
