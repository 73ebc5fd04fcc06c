/** What a bench section is to the runner (bench.ts): a name for BENCH_ONLY, and what it measures into the table. */
import type { ResultTable } from './table.js';

/** What the sections of one run share. */
export interface BenchContext {
  table: ResultTable;
  /** A full run (no BENCH_ONLY): a section may then measure more variants (both isolations). */
  full: boolean;
  /** create_session p50 with a warm pool hit, by runtime, once warm-create has run (the baseline compares to it). */
  warmCreateP50: { modern?: number; legacy?: number };
}

export interface Section {
  /** Its BENCH_ONLY name. */
  name: string;
  /** Part of a full run; false: run only when selected with BENCH_ONLY. */
  inFullRun: boolean;
  run(context: BenchContext): Promise<void>;
}
