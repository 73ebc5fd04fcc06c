export interface Watched {
    pid: number;
    limitBytes: number;
    /** Called once when the process's RSS is above the limit, with the RSS seen. */
    onExceed: (rssBytes: number) => void;
}
export declare class MemoryWatchdog {
    private readonly intervalMs;
    readonly supported: boolean;
    private readonly watched;
    private timer;
    constructor(intervalMs?: number);
    /** Starts watching; returns a function that stops. */
    watch(entry: Watched): () => void;
    private check;
}
/** Resident set size of a process in bytes, or null if it cannot be read. */
export declare function rssOf(pid: number): number | null;
