/**
 * The server's own record of each session's life, for the browser view (src/view/): created, cells started and
 * finished (with their outcome as the host capped it), reset, and how the session ended. Fed from the execution
 * path itself (the session manager and the cell runner), never from files; the view reads it and subscribes to it.
 *
 * Bounded like the cell history (--max-history-cells, --max-history-bytes): each session's log keeps at most
 * 2 × --max-history-cells + 16 events and --max-history-bytes of their JSON; past either the oldest events go and are
 * counted. A finished cell larger than the whole bound is kept with its outputs elided. Logs of ended sessions are
 * kept for the last ENDED_KEPT sessions only, so a viewer can still read how a session ended.
 *
 * Live output (only while a view is served and someone watches the session: `wantsLiveOutput`; a print costs the
 * session a clock read then): the running cell's stdout and stderr as they arrive
 * (`cell_output`, from what the channel kept within the cell's own limits), passed on to viewers but not logged: the
 * running cell's pieces are kept in a buffer of at most `liveBytes` of JSON per session (a viewer that opens the page
 * mid-cell gets them; past the bound the oldest go), dropped when the cell finishes (`cell_finished` has its whole,
 * capped output).
 */
import type { CellOutcome, FileChanges } from '../wire/contract.js';
import type { OutputStream } from './channel-ops.js';
import type { HistoryOutcome } from './history.js';

/** Which tool ran a cell (a registered tool's call is a call_function). */
export type CellTool = 'execute_code' | 'run_file' | 'call_function';

export type ViewEventBody =
  | { kind: 'session'; state: 'created' | 'restored' | 'reset' | 'closed' | 'expired' | 'ended'; reason?: string }
  | { kind: 'cell_started'; cell: number; tool: CellTool; source: string; timeout_ms: number }
  | {
      kind: 'cell_finished';
      cell: number;
      /** `result_html`: the last value's HTML, only when the session was watched as the cell ran (contract.ts). */
      outcome: HistoryOutcome & { result_html?: string | null };
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

/**
 * A piece of the running cell's output, live only (never logged, no `seq`): `chunk` counts the cell's pieces from 0,
 * so a viewer that reconnects skips those it has and sees where earlier ones were not kept.
 */
export interface CellOutputEvent {
  kind: 'cell_output';
  cell: number;
  chunk: number;
  stream: OutputStream;
  text: string;
}

/** A live piece of output with its JSON (made once, for the byte bound and every viewer). */
export interface LivePiece {
  event: CellOutputEvent;
  json: string;
  bytes: number;
  live: true;
}

/** What a viewer is sent: a logged event, or a live piece of output. */
export type StreamedEvent = LoggedEvent | LivePiece;

/** Logs of ended sessions kept for viewers (each bounded like a live one's). */
export const ENDED_KEPT = 8;
/** Paths of changed files (and names of packages) kept in one event. */
const FILES_KEPT = 100;
/** JSON bytes of the running cell's live output kept per session (or --max-history-bytes, when lower). */
export const LIVE_BYTES = 2 ** 20;

/** An event with its JSON (made once, for the byte bound, and written as is to every viewer). */
export interface LoggedEvent {
  event: ViewEvent;
  json: string;
  bytes: number;
}

/** One session's bounded log, and its running cell's live output. */
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
  private readonly listeners = new Set<(streamed: StreamedEvent) => void>();
  /** The running cell's live output: its pieces kept (oldest first, from `head`), their bytes, the next number. */
  private live: { cell: number; pieces: LivePiece[]; head: number; bytes: number; next: number } | null = null;

  constructor(
    readonly id: string,
    /** The tenant that created the session (HTTP), null for stdio and the library. */
    readonly owner: string | null,
    readonly createdAt: number,
    private readonly maxEvents: number,
    private readonly maxBytes: number,
    /** JSON bytes of live output kept for the running cell. */
    private readonly liveBytes = Math.min(LIVE_BYTES, maxBytes),
  ) {}

  get bytes(): number {
    return this.total;
  }

  /** Someone watches the session (a viewer's event stream is subscribed). */
  get watched(): boolean {
    return this.listeners.size > 0;
  }

  /** JSON bytes of the running cell's live output held (at most `liveBytes`). */
  get heldLiveBytes(): number {
    return this.live?.bytes ?? 0;
  }

  /**
   * A piece of the running cell's output: passed to listeners, and kept until the cell finishes within `liveBytes`
   * (the oldest pieces go first; a piece larger than the whole bound is passed on but not kept).
   */
  addLive(cell: number, stream: OutputStream, text: string): void {
    if (this.live?.cell !== cell) this.live = { cell, pieces: [], head: 0, bytes: 0, next: 0 };
    const live = this.live;
    const event: CellOutputEvent = { kind: 'cell_output', cell, chunk: live.next++, stream, text };
    const json = JSON.stringify(event);
    const piece: LivePiece = { event, json, bytes: Buffer.byteLength(json), live: true };
    if (piece.bytes <= this.liveBytes) {
      live.pieces.push(piece);
      live.bytes += piece.bytes;
      while (live.bytes > this.liveBytes) {
        live.bytes -= live.pieces[live.head]!.bytes;
        live.pieces[live.head++] = undefined as unknown as LivePiece;
      }
      if (live.head > 1024 && live.head * 2 > live.pieces.length) {
        live.pieces = live.pieces.slice(live.head);
        live.head = 0;
      }
    }
    for (const listener of this.listeners) listener(piece);
  }

  /** The running cell's live output kept so far, oldest first (for a viewer that connects mid-cell). */
  liveSoFar(): LivePiece[] {
    return this.live ? this.live.pieces.slice(this.live.head) : [];
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
    // A cell started or finished, or the session changed: the live output kept so far is no longer needed (a
    // finished cell's event has its whole output).
    this.live = null;
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

  /** Calls `listener` with every event added from now on, and every piece of live output (with its JSON); returns how to stop. */
  subscribe(listener: (streamed: StreamedEvent) => void): () => void {
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

  /** Whether cells send their output while they run: set once a view is served (enableLiveOutput). */
  private live = false;

  constructor(
    private readonly maxCells: number,
    private readonly maxBytes: number,
  ) {}

  /** A view is served: cells are asked for their output while they run (the server without a view pays nothing). */
  enableLiveOutput(): void {
    this.live = true;
  }

  /** Whether cells are asked for their output while they run (a view is served). */
  get liveOutput(): boolean {
    return this.live;
  }

  /**
   * Whether a cell starting now in this session is asked for its output while it runs: a view is served and someone
   * watches the session (a session nobody watches pays nothing; a viewer who opens it mid-cell gets that cell's
   * output when it finishes, and the next cells' as they run).
   */
  wantsLiveOutput(id: string): boolean {
    return this.live && this.logs.get(id)?.watched === true;
  }

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

  /** A piece of a running cell's output, as the channel kept it (within the cell's limits): to viewers, not logged. */
  cellOutput(id: string, cell: number, stream: OutputStream, text: string): void {
    const log = this.logs.get(id);
    if (log && !log.ended) log.addLive(cell, stream, text);
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
    const { stdout, stderr, result, error, execution_count, display, result_html } = ran.outcome;
    const files = ran.outcome.changes.written.map((f) => f.path).slice(0, FILES_KEPT);
    this.emit(log, {
      kind: 'cell_finished',
      cell,
      outcome: { stdout, stderr, result, error, execution_count, display, ...(result_html ? { result_html } : {}) },
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
