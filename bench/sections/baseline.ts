/**
 * BENCH_ONLY=baseline: the naive baseline: a stateless server's cost per session (a fresh worker booting Pyodide and
 * its packages), against a warm create.
 */
import { Worker } from 'node:worker_threads';
import type { Section } from '../section.js';
import { QUICK, STACK, timed } from '../server.js';
import type { ResultTable } from '../table.js';

/** 7. Naive baseline: a fresh worker that boots Pyodide and loads the packages, then runs a cell. */
export async function naiveBaseline(table: ResultTable, preload: string, label: string, ourP50: number | undefined): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i < (QUICK ? 1 : 3); i++) {
    const [ms] = await timed(
      () =>
        new Promise<void>((resolve, reject) => {
          const worker = new Worker(new URL('../naive-worker.js', import.meta.url), {
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
  const row = table.record(`naive baseline: fresh loadPyodide + packages per session (${label})`, times, 'ms');
  // Alone (BENCH_ONLY=baseline) there is no warm create to compare with.
  if (ourP50 === undefined) return;
  table.push({
    metric: `warm create vs naive baseline (${label})`,
    p50: row.p50! / ourP50,
    p95: null,
    n: times.length,
    unit: '× faster',
    target: '≥ 100',
  });
}

export const section: Section = {
  name: 'baseline',
  inFullRun: true,
  run: async ({ table, warmCreateP50 }) => {
    await naiveBaseline(table, 'none', 'modern, no preload', warmCreateP50.modern);
    await naiveBaseline(table, STACK, 'legacy, scientific stack', warmCreateP50.legacy);
  },
};
