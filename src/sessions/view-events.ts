/**
 * The server's own record of each session's life, for the browser view (src/view/): created, cells started and
 * finished (with their outcome as the host capped it), reset, and how the session ended. Fed from the execution
 * path itself (the session manager and the cell runner), never from files; the view reads it and subscribes to it.
 *
 * Bounded like the cell history (--max-history-cells, --max-history-bytes): each session's log keeps at most
 * 2 × --max-history-cells + 16 events and --max-history-bytes of their JSON; past either the oldest events go and are
 * counted. A finished cell larger than the whole bound is kept with its outputs elided. Logs of ended sessions are
 * kept for the last ENDED_KEPT sessions only, so a viewer can still read how a session ended.
 */
import type { CellOutcome, FileChanges } from '../wire/contract.js';
import type { HistoryOutcome } from './history.js';

/** Which tool ran a cell (a registered tool's call is a call_function). */
export type CellTool = 'execute_code' | 'run_file' | 'call_function';

export type ViewEventBody =
  | { kind: 'session'; state: 'created' | 'restored' | 'reset' | 'closed' | 'expired' | 'ended'; reason?: string }
  | { kind: 'cell_started'; cell: number; tool: CellTool; source: string; timeout_ms: number }
  | {
      kind: 'cell_finished';
      cell: number;
      outcome: HistoryOutcome;
      /** Workspace paths the cell created or modified. */
      files: string[];
      /** Packages the cell's imports loaded. */
      packages: string[];
      interrupted: string | null;
      terminated: string | null;
      duration_ms: number;
      /** Set when the event alone was larger than --max-history-bytes: its outputs are not kept. */
      elided?: string;
    }
  /** Files written or deleted by a tool outside a cell (write_file, upload_file, delete_file, reset). */
  | { kind: 'files'; written: string[]; deleted: string[] }
  /** Packages loaded by install_packages (or a wheel installed), and those that failed. */
  | { kind: 'packages'; loaded: string[]; failed: string[] };

/** One event: `seq` counts up per session from 1 (a viewer resumes after the last it saw). */
export type ViewEvent = ViewEventBody & { seq: number; at: number };

/** Logs of ended sessions kept for viewers (each bounded like a live one's). */
export const ENDED_KEPT = 8;
/** Paths of changed files (and names of packages) kept in one event. */
const FILES_KEPT = 100;

/** One session's bounded log. */
/** An event with its JSON (made once, for the byte bound, and written as is to every viewer). */
export interface LoggedEvent {
  event: ViewEvent;
  json: string;
  bytes: number;
}

export class SessionEventLog {
  /** Kept events from `head` on: dropping the oldest advances `head` (no array shift per event), compacted now and then. */
  private events: LoggedEvent[] = [];
  private head = 0;
  private total = 0;
  private nextSeq = 1;
  private nextCell = 1;
  /** Events dropped because the log was full. */
  dropped = 0;
  ended = false;
  private readonly listeners = new Set<(logged: LoggedEvent) => void>();

  constructor(
    readonly id: string,
    /** The tenant that created the session (HTTP), null for stdio and the library. */
    readonly owner: string | null,
    readonly createdAt: number,
    private readonly maxEvents: number,
    private readonly maxBytes: number,
  ) {}

  get bytes(): number {
    return this.total;
  }

  /** A new cell number (cells are numbered per session, for the view; not Python's execution count). */
  newCell(): number {
    return this.nextCell++;
  }

  add(body: ViewEventBody, at = Date.now()): ViewEvent {
    let event = { ...body, seq: this.nextSeq++, at } as ViewEvent;
    let json = JSON.stringify(event);
    let bytes = Buffer.byteLength(json);
    if (bytes > this.maxBytes) {
      event = elide(event, bytes, this.maxBytes);
      json = JSON.stringify(event);
      bytes = Buffer.byteLength(json);
    }
    const logged = { event, json, bytes };
    this.events.push(logged);
    this.total += bytes;
    // Oldest first, past the event bound, then past the byte bound; the newest always stays (elided, it fits alone).
    while (this.events.length - this.head > this.maxEvents || (this.total > this.maxBytes && this.events.length - this.head > 1)) {
      this.total -= this.events[this.head]!.bytes;
      this.events[this.head++] = undefined as unknown as LoggedEvent;
      this.dropped++;
    }
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
    for (const listener of this.listeners) listener(logged);
    return event;
  }

  /** Events with seq above `after`, oldest first, with their JSON. */
  loggedSince(after = 0): LoggedEvent[] {
    const kept = this.events.slice(this.head);
    // Sequence numbers are consecutive: the first to send is found by arithmetic, not by a scan.
    const first = kept[0]?.event.seq ?? 0;
    return kept.slice(Math.max(0, after - first + 1));
  }

  /** Events with seq above `after`, oldest first. */
  since(after = 0): ViewEvent[] {
    return this.loggedSince(after).map((e) => e.event);
  }

  /** Calls `listener` with every event added from now on (and its JSON); returns how to stop. */
  subscribe(listener: (logged: LoggedEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** An event over the whole bound: the cell's source cut, its outputs gone, a note why (like history.ts). */
function elide(event: ViewEvent, bytes: number, maxBytes: number): ViewEvent {
  const budget = Math.max(0, Math.floor(maxBytes / 2) - 1024);
  const note = `This event took ${bytes} bytes, more than a session's view log may hold (--max-history-bytes ${maxBytes}), so its outputs are not kept.`;
  if (event.kind === 'cell_started') return { ...event, source: event.source.slice(0, budget) };
  if (event.kind === 'cell_finished') {
    const { error } = event.outcome;
    return {
      ...event,
      files: [],
      packages: [],
      elided: note,
      outcome: {
        stdout: '',
        stderr: '',
        result: null,
        error: error && { type: error.type.slice(0, 200), message: error.message.slice(0, 300), traceback: '' },
        execution_count: event.outcome.execution_count,
        display: [],
      },
    };
  }
  // Lists of paths or names: only their count stays (the files and packages panels list them all).
  if (event.kind === 'files') return { ...event, written: [`${event.written.length} files`], deleted: [] };
  if (event.kind === 'packages') return { ...event, loaded: [`${event.loaded.length} packages`], failed: [] };
  return { ...event, reason: event.reason?.slice(0, budget) };
}

/** Every session's log, live and recently ended, and who listens for new sessions. */
export class ViewEvents {
  private readonly logs = new Map<string, SessionEventLog>();
  private readonly endedOrder: string[] = [];
  private readonly listeners = new Set<(log: SessionEventLog, event: ViewEvent) => void>();
  /** The running cell of each session, which the view may interrupt (--view-control), and how to stop following its caller's signal. */
  private readonly running = new Map<string, { controller: AbortController; unlink: () => void }>();

  constructor(
    private readonly maxCells: number,
    private readonly maxBytes: number,
  ) {}

  /** Every log (live ones and the last ENDED_KEPT ended ones). */
  all(): SessionEventLog[] {
    return [...this.logs.values()];
  }

  get(id: string): SessionEventLog | undefined {
    return this.logs.get(id);
  }

  /** Calls `listener` with every event of every session from now on (the sessions list); returns how to stop. */
  subscribe(listener: (log: SessionEventLog, event: ViewEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A session exists (created or restored). */
  created(id: string, owner: string | null, restored: boolean): void {
    const log = new SessionEventLog(id, owner, Date.now(), 2 * this.maxCells + 16, this.maxBytes);
    this.logs.set(id, log);
    this.emit(log, { kind: 'session', state: restored ? 'restored' : 'created' });
  }

  /**
   * A cell starts; returns its number (for cellFinished()) and the signal the view's Interrupt aborts, or null for a
   * session without a log.
   */
  cellStarted(
    id: string,
    tool: CellTool,
    source: string,
    timeoutMs: number,
    callerSignal?: AbortSignal,
  ): { cell: number; signal: AbortSignal } | null {
    const log = this.logs.get(id);
    if (!log || log.ended) return null;
    const cell = log.newCell();
    const controller = new AbortController();
    // The caller's cancellation still cancels the cell: followed by a listener (AbortSignal.any cost 21 us a call).
    let unlink = () => {};
    if (callerSignal?.aborted) controller.abort();
    else if (callerSignal) {
      const abort = () => controller.abort();
      callerSignal.addEventListener('abort', abort, { once: true });
      unlink = () => callerSignal.removeEventListener('abort', abort);
    }
    this.stopRunning(id);
    this.running.set(id, { controller, unlink });
    this.emit(log, { kind: 'cell_started', cell, tool, source, timeout_ms: timeoutMs });
    return { cell, signal: controller.signal };
  }

  /** Interrupts the session's running cell (the view's Interrupt button); false when none runs. */
  interrupt(id: string): boolean {
    const running = this.running.get(id);
    if (!running) return false;
    running.controller.abort();
    return true;
  }

  private stopRunning(id: string): void {
    this.running.get(id)?.unlink();
    this.running.delete(id);
  }

  /** A cell ended; `outcome` is what the host already capped (capOutcome). */
  cellFinished(
    id: string,
    cell: number | null,
    ran: { outcome: CellOutcome; interrupted: string | null; terminated: string | null; durationMs: number },
  ): void {
    this.stopRunning(id);
    const log = this.logs.get(id);
    if (!log || cell === null) return;
    const { stdout, stderr, result, error, execution_count, display } = ran.outcome;
    const files = ran.outcome.changes.written.map((f) => f.path).slice(0, FILES_KEPT);
    this.emit(log, {
      kind: 'cell_finished',
      cell,
      outcome: { stdout, stderr, result, error, execution_count, display },
      files,
      packages: ran.outcome.loaded_packages.slice(0, FILES_KEPT),
      interrupted: ran.interrupted,
      terminated: ran.terminated,
      duration_ms: Math.round(ran.durationMs),
    });
  }

  /** A tool outside a cell changed files; nothing is logged when nothing changed. */
  filesChanged(id: string, changes: FileChanges): void {
    const log = this.logs.get(id);
    if (!log || (changes.written.length === 0 && changes.deleted.length === 0)) return;
    this.emit(log, {
      kind: 'files',
      written: changes.written.map((f) => f.path).slice(0, FILES_KEPT),
      deleted: changes.deleted.slice(0, FILES_KEPT),
    });
  }

  /** install_packages loaded packages (or a wheel was installed); names come from the host's checked reply. */
  packagesLoaded(id: string, loaded: string[], failed: string[]): void {
    const log = this.logs.get(id);
    if (!log || (loaded.length === 0 && failed.length === 0)) return;
    this.emit(log, { kind: 'packages', loaded: loaded.slice(0, FILES_KEPT), failed: failed.slice(0, FILES_KEPT) });
  }

  reset(id: string): void {
    const log = this.logs.get(id);
    if (log) this.emit(log, { kind: 'session', state: 'reset' });
  }

  /** The session is gone; its log is kept among the last ENDED_KEPT ended ones. */
  ended(id: string, state: 'closed' | 'expired' | 'ended', reason?: string): void {
    this.stopRunning(id);
    const log = this.logs.get(id);
    if (!log || log.ended) return;
    this.emit(log, reason === undefined ? { kind: 'session', state } : { kind: 'session', state, reason });
    log.ended = true;
    this.endedOrder.push(id);
    while (this.endedOrder.length > ENDED_KEPT) this.logs.delete(this.endedOrder.shift()!);
  }

  private emit(log: SessionEventLog, body: ViewEventBody): void {
    const event = log.add(body);
    for (const listener of this.listeners) listener(log, event);
  }
}
