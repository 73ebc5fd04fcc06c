/**
 * A saved session's replay log (--state-dir): `cells.jsonl`, the cells to replay, one JSON object a line, appended as
 * they run; after a compaction its first line is {dropped, unread}: the cells no longer in it, and the parts that
 * could not be read. The log is bounded like the history (--max-history-cells, and --max-history-bytes of its lines):
 * past twice either bound it is compacted to its newest cells, so it holds at most 2 × --max-history-bytes (plus one
 * line) on disk. It is read back a chunk at a time, whatever its size, keeping only the newest cells within the
 * bounds; whatever cannot be read (a torn or corrupt line, a line over MAX_LINE_BYTES, an unreadable file) is
 * reported in the restore, never silently left out.
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { CellSource } from './channel.js';
import { untrustedReason } from '../python/user-cache.js';
import { appendLine, writeAtomic } from './state-files.js';

/**
 * Longest line of cells.jsonl read back: a line holds a cell's source (code up to --max-code-chars, at most 10 M
 * characters, which JSON writes in at most 6 bytes each), so only a corrupt line is longer.
 */
const MAX_LINE_BYTES = 64 * 2 ** 20;
/** How much of cells.jsonl is read at a time. */
const READ_CHUNK = 2 ** 20;
/** Reasons kept in a compacted log's header (each names how many lines it covers). */
const MAX_UNREAD_REASONS = 20;

/** One cell as it is replayed: what ran, with which time limit, and how it ended then. */
export interface LoggedCell {
  source: CellSource;
  timeoutMs: number;
  /** False when the cell was interrupted (time limit, cancellation): a restore skips it. */
  completed: boolean;
  /** Its number when it ran. */
  executionCount: number;
  at: number;
}

/** The replay log as read back: its newest cells within the bounds, and what is missing before or between them. */
export interface LogRead {
  log: LoggedCell[];
  /** Cells no longer on disk because of the history bound (--max-history-cells, --max-history-bytes). */
  dropped: number;
  /** Parts of the log that could not be read, each with why; empty when all of it was. */
  unread: string[];
}

/** The replay logs of the sessions in the state directory, each in its session's directory. */
export class CellLogs {
  /** Appended lines per session since the log was last compacted (loaded lazily). */
  private readonly lines = new Map<string, number>();

  constructor(
    private readonly maxCells: number,
    private readonly maxBytes: number,
    private readonly log: (message: string) => void,
  ) {}

  /** Appends a cell to the log of the session `id` saved in `dir`, compacting it to the history bounds now and then. */
  async append(id: string, dir: string, cell: LoggedCell): Promise<void> {
    const size = await appendLine(join(dir, 'cells.jsonl'), JSON.stringify({ cell }) + '\n');
    let lines = this.lines.get(id);
    if (lines === undefined) lines = (await this.read(dir)).log.length;
    else lines++;
    this.lines.set(id, lines);
    // Past twice a bound, so that a compaction (which rewrites up to one bound) comes once per bound appended.
    if (lines > Math.max(2 * this.maxCells, this.maxCells + 50) || size > 2 * this.maxBytes) await this.compact(id, dir);
  }

  /** Empties a log (reset_session: a fresh namespace replays nothing before it). */
  async clear(id: string, dir: string): Promise<void> {
    await writeAtomic(dir, 'cells.jsonl', '');
    this.lines.set(id, 0);
  }

  /** Forgets a session's line count (its state was deleted). */
  forget(id: string): void {
    this.lines.delete(id);
  }

  /**
   * Rewrites the log as its newest cells within the bounds, after a header line that keeps the count of the cells
   * dropped and what could not be read (a later restore reports both).
   */
  private async compact(id: string, dir: string): Promise<void> {
    const { log, dropped, unread } = await this.read(dir);
    const header = JSON.stringify({ dropped, unread: unread.slice(0, MAX_UNREAD_REASONS).map((reason) => reason.slice(0, 300)) });
    const text = [header, ...log.map((cell) => JSON.stringify({ cell }))].join('\n') + '\n';
    await writeAtomic(dir, 'cells.jsonl', text);
    this.lines.set(id, log.length);
    this.log(
      `session ${id}: cell log compacted to its last ${log.length} cells (${dropped} dropped in all)` +
        (unread.length > 0 ? `; not readable: ${unread.join('; ')}` : ''),
    );
  }

  /**
   * The log in `dir`: its newest cells within --max-history-cells and --max-history-bytes (of their lines), how many
   * before them are gone, and what could not be read. Read a chunk at a time: the memory it takes is bounded by the
   * bounds, not by the file.
   */
  async read(dir: string): Promise<LogRead> {
    const path = join(dir, 'cells.jsonl');
    const window = new LogWindow(this.maxCells, this.maxBytes);
    const unread = new Map<string, number>();
    const count = (reason: string) => unread.set(reason, (unread.get(reason) ?? 0) + 1);
    let handle: FileHandle;
    try {
      handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { log: [], dropped: 0, unread: [] };
      return { log: [], dropped: 0, unread: [`cells.jsonl could not be opened (${code === 'ELOOP' ? 'a symbolic link' : code})`] };
    }
    const notes: string[] = [];
    try {
      const info = await handle.stat();
      const problem = info.isFile() ? untrustedReason(info, path) : 'not a regular file';
      if (problem) return { log: [], dropped: 0, unread: [`cells.jsonl was not read: ${problem}`] };
      for await (const line of logLines(handle, MAX_LINE_BYTES)) {
        if (typeof line !== 'string') {
          count(line.torn ? 'torn at the end of the log (a crash while it was written)' : `longer than ${MAX_LINE_BYTES} bytes`);
          continue;
        }
        if (line === '') continue;
        let parsed: { cell?: LoggedCell; dropped?: unknown; unread?: unknown };
        try {
          parsed = JSON.parse(line) as typeof parsed;
        } catch {
          count('not JSON (torn by a crash, or corrupt)');
          continue;
        }
        if (parsed?.cell && isLoggedCell(parsed.cell)) {
          window.push(parsed.cell, Buffer.byteLength(line) + 1);
        } else if (typeof parsed?.dropped === 'number' && Number.isSafeInteger(parsed.dropped) && parsed.dropped >= 0) {
          window.dropped += parsed.dropped;
          if (Array.isArray(parsed.unread))
            notes.push(...parsed.unread.filter((r): r is string => typeof r === 'string').slice(0, MAX_UNREAD_REASONS));
        } else {
          count('not a cell');
        }
      }
    } catch (error) {
      count(`a read error (${(error as Error).message})`);
    } finally {
      await handle.close();
    }
    const reasons = [...notes, ...[...unread].map(([reason, lines]) => `${lines} line${lines === 1 ? '' : 's'}: ${reason}`)];
    return { log: window.cells(), dropped: window.dropped, unread: reasons };
  }
}

/**
 * The newest cells of a log as it is read: at most `maxCells`, and lines of at most `maxBytes` in all (the newest
 * cell always stays, as in the history); older ones are counted in `dropped`.
 */
class LogWindow {
  private readonly kept: { cell: LoggedCell; bytes: number }[] = [];
  private head = 0;
  private total = 0;
  dropped = 0;

  constructor(
    private readonly maxCells: number,
    private readonly maxBytes: number,
  ) {}

  push(cell: LoggedCell, bytes: number): void {
    this.kept.push({ cell, bytes });
    this.total += bytes;
    while (this.kept.length - this.head > this.maxCells || (this.kept.length - this.head > 1 && this.total > this.maxBytes)) {
      this.total -= this.kept[this.head]!.bytes;
      this.head++;
      this.dropped++;
    }
    // Shifting one by one would be quadratic over a long log: the array is trimmed now and then instead.
    if (this.head > 1024 && this.head * 2 > this.kept.length) {
      this.kept.splice(0, this.head);
      this.head = 0;
    }
  }

  cells(): LoggedCell[] {
    return this.kept.slice(this.head).map((entry) => entry.cell);
  }
}

/**
 * The lines of a file, read a chunk at a time: strings (without their newline), or a marker for a line longer than
 * `maxLine` (skipped without being held) and for a last line without its newline (torn by a crash mid-append).
 */
async function* logLines(handle: FileHandle, maxLine: number): AsyncGenerator<string | { torn: boolean }> {
  const chunk = Buffer.allocUnsafe(READ_CHUNK);
  let parts: Buffer[] = [];
  let length = 0;
  let tooLong = false;
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, READ_CHUNK, null);
    if (bytesRead === 0) break;
    const view = chunk.subarray(0, bytesRead);
    let start = 0;
    while (start < bytesRead) {
      const newline = view.indexOf(0x0a, start);
      const end = newline === -1 ? bytesRead : newline;
      if (!tooLong && length + (end - start) > maxLine) {
        tooLong = true;
        parts = [];
      }
      if (!tooLong) {
        parts.push(Buffer.from(view.subarray(start, end)));
        length += end - start;
      }
      if (newline === -1) break;
      yield tooLong ? { torn: false } : Buffer.concat(parts, length).toString('utf8');
      parts = [];
      length = 0;
      tooLong = false;
      start = newline + 1;
    }
  }
  if (length > 0 || tooLong) yield { torn: true };
}

function isLoggedCell(value: LoggedCell): boolean {
  const source = value.source as Record<string, unknown> | undefined;
  const okSource =
    typeof source === 'object' &&
    source !== null &&
    (typeof source.code === 'string' ||
      typeof source.path === 'string' ||
      (typeof source.call === 'object' && source.call !== null && typeof (source.call as { name?: unknown }).name === 'string'));
  return okSource && Number.isFinite(value.timeoutMs) && typeof value.completed === 'boolean' && Number.isFinite(value.executionCount);
}
