/**
 * BENCH_ONLY=history: the server's own resident memory with 16 sessions (the default --max-sessions) each at its
 * history bound (the default --max-history-bytes, 8 MiB), filled with cells of 1 MB of stdout. The history lives in
 * the server process, so the figure is the server's RSS, not its sessions' processes. Nothing is preloaded: what is
 * measured does not depend on it, and 16 sessions boot faster without.
 */
import { rssOf } from '../../src/sessions/memory-watchdog.js';
import type { Section } from '../section.js';
import { startServer } from '../server.js';
import { log } from '../table.js';

/** What this section needs of the bench: how to start a server, where its rows go, its log. */
export interface HistoryBenchDeps {
  startServer(
    flags: string[],
    preload: string,
  ): Promise<{
    pid: number;
    call: (name: string, args?: Record<string, unknown>) => Promise<Record<string, any>>;
    close: () => Promise<void>;
    /** The server's stderr, by line. */
    logs: string[];
  }>;
  push(row: { metric: string; p50: number | null; p95: number | null; n: number; unit: string; target?: string; note?: string }): void;
  log(message: string): void;
}

const SESSIONS = 16;
const HISTORY_BYTES = 8 * 2 ** 20;
const SESSION_MEMORY_MB = 1024;
const OUTPUT = 10 ** 6;
/** Cells per session: past the bound, so each history is full and dropping. */
const CELLS = Math.ceil(HISTORY_BYTES / OUTPUT) + 2;

/** The server process's own resident memory (not its sessions' processes), in MB. */
function ownRssMb(pid: number): number {
  const rss = rssOf(pid);
  if (rss === null) throw new Error(`no /proc/${pid}/status: this bench needs Linux`);
  return rss / 2 ** 20;
}

export async function historyBound(deps: HistoryBenchDeps): Promise<void> {
  const server = await deps.startServer(
    [
      '--warm-sessions',
      '0',
      '--max-sessions',
      String(SESSIONS),
      // The memory budget (--max-total-memory-mb, 90 % of the machine's memory by default) refuses to start a server
      // whose sessions × --max-session-memory-mb (2048 by default) + its heap limit do not fit: 16 × 2048 MB did not
      // on a 24 GB machine, the server exited with status 2 before the handshake and the bench saw "Connection closed".
      // A session printing 1 MB cells with nothing preloaded stays far below 1024 MB.
      '--max-session-memory-mb',
      String(SESSION_MEMORY_MB),
      '--max-output-chars',
      String(OUTPUT),
      '--max-history-bytes',
      String(HISTORY_BYTES),
    ],
    'none',
  );
  try {
    const ids: string[] = [];
    for (let i = 0; i < SESSIONS; i++) ids.push((await server.call('create_session')).session_id as string);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = ownRssMb(server.pid);
    const code = `print("x" * ${OUTPUT - 1})`;
    for (let round = 0; round < CELLS; round++) {
      await Promise.all(ids.map((session_id) => server.call('execute_code', { session_id, code })));
    }
    const exported = await server.call('export_notebook', { session_id: ids[0] });
    // Idle long enough for V8's memory reducer (it starts 8 s after the last allocation burst).
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    const after = ownRssMb(server.pid);
    deps.push({
      metric: `server RSS, ${SESSIONS} sessions at their history bound (--max-history-bytes ${HISTORY_BYTES})`,
      p50: after,
      p95: null,
      n: 1,
      unit: 'MB',
      note: `server process only; ${before.toFixed(0)} MB with the sessions empty, +${(after - before).toFixed(0)} MB for ${SESSIONS} × ${CELLS} cells of 1 MB (each history keeps ${exported.cells}, ${exported.dropped_cells} dropped); --preload none`,
    });
    deps.log(`history bound: server ${before.toFixed(0)} → ${after.toFixed(0)} MB RSS`);
  } catch (error) {
    deps.log(`history bound failed; the server's last lines:\n${server.logs.slice(-20).join('\n')}`);
    throw error;
  } finally {
    await server.close();
  }
}

export const section: Section = {
  name: 'history',
  inFullRun: false,
  run: ({ table }) => historyBound({ startServer, push: table.push, log }),
};
