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
export class MemoryWatchdog {
    intervalMs;
    supported;
    watched = new Set();
    timer = null;
    constructor(intervalMs = 100) {
        this.intervalMs = intervalMs;
        this.supported = rssOf(process.pid) !== null;
    }
    /** Starts watching; returns a function that stops. */
    watch(entry) {
        if (!this.supported)
            return () => { };
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
    check() {
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
export function rssOf(pid) {
    try {
        // VmRSS is in kB whatever the page size (statm counts pages, which differ between kernels).
        const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
        return match ? Number(match[1]) * 1024 : null;
    }
    catch {
        return null;
    }
}
