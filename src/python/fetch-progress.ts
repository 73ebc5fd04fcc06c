/**
 * What `fetch-wheels` shows while it downloads: in a terminal, one line rewritten in place (the wheel, its bytes, the
 * bytes so far); otherwise (a log, CI, npm's captured output) one plain line per wheel stored, never a stream of
 * carriage returns. The lock names no sizes, so the total is counted as the wheels arrive.
 */
import { formatBytes, type FetchProgress } from './wheels.js';

/** Least time between two rewrites of the terminal line (a fast mirror sends thousands of chunks a second). */
const REDRAW_MS = 100;

/** One status line at the bottom of a terminal, rewritten in place; other lines are printed above it. */
export class StatusLine {
  private shown = false;

  constructor(private readonly stream: { write(text: string): unknown; columns?: number }) {}

  /** Replaces the status line, cut to the terminal's width (a wrapped line could not be rewritten). */
  update(text: string): void {
    // columns is 0 or absent where the width is unknown (a pseudo-terminal without a size).
    const width = Math.max(20, (this.stream.columns || 80) - 1);
    const fitted = text.length > width ? `${text.slice(0, width - 1)}…` : text;
    this.stream.write(`\r${fitted}\x1b[K`);
    this.shown = true;
  }

  /** Prints a line of its own; the status line, if any, is cleared first and redrawn by the next update. */
  line(text: string): void {
    if (this.shown) this.stream.write('\r\x1b[K');
    this.shown = false;
    this.stream.write(`${text}\n`);
  }
}

/**
 * The fetch's progress handler: `status` rewrites the terminal line (a terminal), else `line` prints one line per
 * wheel stored. `now` is the clock (tests pass their own).
 */
export function progressReporter(
  out: { line(text: string): void; status?: (text: string) => void },
  now: () => number = Date.now,
): (progress: FetchProgress) => void {
  let drawn = 0;
  let current = '';
  return (progress) => {
    const { index, count, fileName, received, size, totalBytes, done } = progress;
    if (!out.status) {
      if (done) out.line(`  [${index}/${count}] ${fileName}: ${formatBytes(received)}, verified (${formatBytes(totalBytes)} so far)`);
      return;
    }
    // Redrawn at most every REDRAW_MS, but always for a new wheel and when one is stored.
    if (!done && fileName === current && now() - drawn < REDRAW_MS) return;
    current = fileName;
    drawn = now();
    const of = size === null ? formatBytes(received) : `${formatBytes(received)} of ${formatBytes(size)}`;
    // The file name last: a narrow terminal cuts it, not the figures.
    out.status(`fetch-wheels: [${index}/${count}] ${done ? 'verified' : of}, ${formatBytes(totalBytes)} so far: ${fileName}`);
  };
}
