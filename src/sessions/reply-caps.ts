/**
 * Host-side caps on what a session's reply may carry. The harness bounds its output too, but it runs in the
 * user's realm (user code can rebind its functions), so every string of a cell outcome is cut here again, and a
 * whole tool reply is fitted under --max-reply-bytes. Each cut is reported in `truncated`.
 */
import type { CellOutcome, OutputLimits, PackageFailure, Truncation } from '../wire/contract.js';
import { boundedReason } from '../wire/load-reasons.js';

/** Longest Python exception type name kept. */
export const MAX_ERROR_TYPE_CHARS = 200;
/** Most rich outputs (figures, display() calls) kept from one cell. */
export const MAX_DISPLAY_ITEMS = 100;

/** Caps every string of a cell outcome; characters cut are added to `truncated`. */
export function capOutcome(outcome: CellOutcome, limits: OutputLimits): CellOutcome {
  const cut: Record<string, number> = { ...(outcome.truncated ?? {}) };
  const cap = (field: keyof NonNullable<Truncation>, text: string, limit: number): string => {
    if (text.length <= limit) return text;
    cut[field] = (cut[field] ?? 0) + text.length - limit;
    return text.slice(0, limit);
  };
  const error = outcome.error && {
    type: cap('error', outcome.error.type, MAX_ERROR_TYPE_CHARS),
    message: cap('error', outcome.error.message, limits.traceback),
    traceback: cap('traceback', outcome.error.traceback, limits.traceback),
  };
  const kept = outcome.display.slice(0, MAX_DISPLAY_ITEMS);
  if (outcome.display.length > kept.length) cut.display = (cut.display ?? 0) + (outcome.display.length - kept.length);
  const display = kept.map((item) => ({
    mime_type: cap('display', item.mime_type, 200),
    ...(item.path !== undefined ? { path: item.path } : {}),
    ...(item.text !== undefined ? { text: cap('display', item.text, limits.result) } : {}),
  }));
  return {
    ...outcome,
    stdout: cap('stdout', outcome.stdout, limits.stdout),
    stderr: cap('stderr', outcome.stderr, limits.stderr),
    result: outcome.result === null ? null : cap('result', outcome.result, limits.result),
    // For the view only: dropped, not cut, past the result's limit (cut HTML would be broken markup).
    ...(outcome.result_html !== undefined
      ? { result_html: typeof outcome.result_html === 'string' && outcome.result_html.length <= limits.result ? outcome.result_html : null }
      : {}),
    error,
    display,
    failed_packages: capFailures(outcome.failed_packages),
    truncated: Object.keys(cut).length > 0 ? cut : null,
  };
}

/** Package failures with each reason cut to MAX_LOAD_REASON_BYTES of UTF-8 again (the worker cut them already). */
export function capFailures(failures: PackageFailure[]): PackageFailure[] {
  return failures.map(({ name, reason }) => ({ name, reason: boundedReason(reason) }));
}

/** Size of a value as JSON text in UTF-8 bytes: what it costs on the wire. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

/**
 * Cuts the longest strings of a JSON-like value to half their length until `fits()` holds (or nothing long is
 * left); returns the characters cut by top-level field. Used as the last resort of reply fitting, after images.
 */
export function shrinkLongestStrings(target: Record<string, unknown>, fits: () => boolean): Record<string, number> {
  const cut: Record<string, number> = {};
  for (let round = 0; round < 64 && !fits(); round++) {
    let best: { holder: Record<string, unknown> | unknown[]; key: string | number; top: string; length: number } | null = null;
    const visit = (holder: Record<string, unknown> | unknown[], top: string) => {
      for (const [key, value] of Object.entries(holder)) {
        const where = top || key;
        if (typeof value === 'string' && value.length > 256 && (!best || value.length > best.length)) {
          best = { holder, key: Array.isArray(holder) ? Number(key) : key, top: where, length: value.length };
        } else if (typeof value === 'object' && value !== null) {
          visit(value as Record<string, unknown>, where);
        }
      }
    };
    visit(target, '');
    if (!best) break;
    const { holder, key, top, length } = best as {
      holder: Record<string | number, unknown>;
      key: string | number;
      top: string;
      length: number;
    };
    const kept = Math.floor(length / 2);
    holder[key] = `${(holder[key] as string).slice(0, kept)} [... cut to fit --max-reply-bytes]`;
    cut[top] = (cut[top] ?? 0) + length - kept;
  }
  return cut;
}
