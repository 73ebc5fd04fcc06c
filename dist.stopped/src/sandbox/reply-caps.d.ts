/**
 * Host-side caps on what a session's reply may carry. The harness bounds its output too, but it runs in the
 * user's realm (user code can rebind its functions), so every string of a cell outcome is cut here again, and a
 * whole tool reply is fitted under --max-reply-bytes. Each cut is reported in `truncated`.
 */
import type { CellOutcome, OutputLimits } from '../contract.js';
/** Longest Python exception type name kept. */
export declare const MAX_ERROR_TYPE_CHARS = 200;
/** Most rich outputs (figures, display() calls) kept from one cell. */
export declare const MAX_DISPLAY_ITEMS = 100;
/** Caps every string of a cell outcome; characters cut are added to `truncated`. */
export declare function capOutcome(outcome: CellOutcome, limits: OutputLimits): CellOutcome;
/** Size of a value as JSON text in UTF-8 bytes: what it costs on the wire. */
export declare function jsonBytes(value: unknown): number;
/**
 * Cuts the longest strings of a JSON-like value to half their length until `fits()` holds (or nothing long is
 * left); returns the characters cut by top-level field. Used as the last resort of reply fitting, after images.
 */
export declare function shrinkLongestStrings(target: Record<string, unknown>, fits: () => boolean): Record<string, number>;
