/**
 * The bench's results: one row per metric (percentiles of its samples, its unit, the target it is held to), in the
 * order measured, and the bench's log on stderr. The runner (bench.ts) prints and writes the table.
 */

export interface Row {
  metric: string;
  p50: number | null;
  p95: number | null;
  p99?: number | null;
  n: number;
  unit: string;
  target?: string;
  note?: string;
}

export const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export class ResultTable {
  readonly rows: Row[] = [];

  /** Adds a row of percentiles of `values` (and logs it). A property, so sections can be handed it alone. */
  readonly record = (metric: string, values: number[], unit: string, target?: string, note?: string, withP99 = false): Row => {
    const row: Row = { metric, p50: percentile(values, 50), p95: percentile(values, 95), n: values.length, unit, target, note };
    if (withP99) row.p99 = percentile(values, 99);
    this.rows.push(row);
    log(
      `${metric}: p50 ${row.p50?.toFixed(2)} ${unit}, p95 ${row.p95?.toFixed(2)}${withP99 ? `, p99 ${row.p99?.toFixed(2)}` : ''} (n=${values.length})`,
    );
    return row;
  };

  /** Adds a row computed by the section itself (a ratio, a single figure, "not measured"). */
  readonly push = (row: Row): void => {
    this.rows.push(row);
  };
}
