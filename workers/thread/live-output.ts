/**
 * A running cell's output sent to the host while the cell runs, for the browser view (docs/view.md): the harness's
 * streams (workers/python/streams.py, LiveOutput) call `pyodide_js._pyodide_mcp_live_output(stream, text)` with what
 * they keep, at most once per stream every 50 ms, and this sends it as `output` messages tagged with the cell's
 * request id. Only for a cell whose request asked for it (`stream_output`: the server serves a view).
 *
 * Security: user code can call the function too, with anything, as often as it likes, so it checks everything it is
 * given: it sends only while a cell that asked for it runs, only strings on stdout or stderr, each cut to
 * MAX_OUTPUT_CHUNK_CHARS, at most the cell's own limit per stream (OutputLimits), and at most BURST messages plus
 * RATE a second (beyond that a piece is dropped: the live view skips it, the cell's reply still has it). Everything
 * it uses is captured when this module is first imported, before user code exists. The server checks all of it again
 * (src/sessions/channel.ts).
 */
import type { OutputLimits, SessionMessage } from '../../src/wire/contract.js';
import { MAX_OUTPUT_CHUNK_CHARS } from '../../src/wire/limits.js';

const now = performance.now.bind(performance);
const sliceString = Function.prototype.call.bind(String.prototype.slice) as (text: string, start: number, end: number) => string;
const min = Math.min;

/** Messages a cell may send at once, and how many a second after that (the harness sends at most 2 per stream per 50 ms). */
const BURST = 32;
const RATE = 100;

interface LiveCell {
  id: number;
  /** Characters each stream may still send. */
  stdoutLeft: number;
  stderrLeft: number;
  tokens: number;
  refilled: number;
}

export class LiveOutput {
  private cell: LiveCell | null = null;

  constructor(private readonly post: (message: SessionMessage) => void) {}

  /** The cell of request `id` starts and asked for its output: sent from now on, within its limits. */
  start(id: number, limits: OutputLimits): void {
    this.cell = { id, stdoutLeft: limits.stdout, stderrLeft: limits.stderr, tokens: BURST, refilled: now() };
  }

  /** The cell ended: nothing more is sent for it (its reply carries all its output). */
  stop(): void {
    this.cell = null;
  }

  /** What the harness calls (and user code may): one piece of a stream's output. */
  readonly send = (stream: unknown, text: unknown): void => {
    const cell = this.cell;
    if (cell === null || typeof text !== 'string' || text.length === 0) return;
    if (stream !== 'stdout' && stream !== 'stderr') return;
    const left = stream === 'stdout' ? cell.stdoutLeft : cell.stderrLeft;
    if (left <= 0) return;
    const t = now();
    cell.tokens = min(BURST, cell.tokens + ((t - cell.refilled) / 1000) * RATE);
    cell.refilled = t;
    if (cell.tokens < 1) return;
    cell.tokens--;
    const kept = text.length > min(left, MAX_OUTPUT_CHUNK_CHARS) ? sliceString(text, 0, min(left, MAX_OUTPUT_CHUNK_CHARS)) : text;
    if (stream === 'stdout') cell.stdoutLeft -= kept.length;
    else cell.stderrLeft -= kept.length;
    this.post({ type: 'output', id: cell.id, stream, text: kept });
  };
}
