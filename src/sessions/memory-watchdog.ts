/**
 * The host-side memory limit of session processes: every session's memory (WebAssembly, V8 heap, ArrayBuffers,
 * its copy of its files) lives in its own process, whose resident set the server reads from /proc and ends when it
 * passes the limit. Engine limits inside the session (--max-memory-mb, --max-heap-mb) cover only parts of that
 * memory; this covers all of it and cannot be changed from inside.
 *
 * Linux only: elsewhere /proc/<pid>/status does not exist and `supported` is false (the server logs that the limit
 * is not enforced). One shared timer serves every session.
 */
import { readFileSync } from 'node:fs';

export interface Watched {
  pid: number;
  limitBytes: number;
  /** Called once when the process's RSS is above the limit, with the RSS seen. */
  onExceed: (rssBytes: number) => void;
}

export class MemoryWatchdog {
  readonly supported: boolean;
  private readonly watched = new Set<Watched>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly intervalMs = 100) {
    this.supported = rssOf(process.pid) !== null;
  }

  /** Starts watching; returns a function that stops. */
  watch(entry: Watched): () => void {
    if (!this.supported) return () => {};
    this.watched.add(entry);
    if (!this.timer) {
      this.timer = setInterval(() => this.check(), this.intervalMs);
      this.timer.unref();
    }
    return () => {
      this.watched.delete(entry);
      if (this.watched.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  /**
   * Memory in use now: this process's RSS and the sum of the watched session processes' (for the memory budget,
   * src/sessions/memory-budget.ts). With thread isolation the sessions are inside `serverBytes`. Where /proc cannot
   * be read, only `serverBytes` is known.
   */
  measure(): { serverBytes: number; sessionBytes: number; sessions: number } {
    let sessionBytes = 0;
    let sessions = 0;
    for (const entry of this.watched) {
      const rss = rssOf(entry.pid);
      if (rss === null) continue;
      sessionBytes += rss;
      sessions++;
    }
    return { serverBytes: process.memoryUsage.rss(), sessionBytes, sessions };
  }

  private check(): void {
    for (const entry of this.watched) {
      const rss = rssOf(entry.pid);
      if (rss !== null && rss > entry.limitBytes) {
        this.watched.delete(entry);
        entry.onExceed(rss);
      }
    }
  }
}

/** Resident set size of a process in bytes, or null if it cannot be read. */
export function rssOf(pid: number): number | null {
  try {
    // VmRSS is in kB whatever the page size (statm counts pages, which differ between kernels).
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}
