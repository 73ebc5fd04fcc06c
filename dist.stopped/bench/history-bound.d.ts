/** What this section needs of bench.ts (passed in: importing bench.ts would run it). */
export interface HistoryBenchDeps {
    startServer(flags: string[], preload: string): Promise<{
        pid: number;
        call: (name: string, args?: Record<string, unknown>) => Promise<Record<string, any>>;
        close: () => Promise<void>;
    }>;
    push(row: {
        metric: string;
        p50: number | null;
        p95: number | null;
        n: number;
        unit: string;
        target?: string;
        note?: string;
    }): void;
    log(message: string): void;
}
export declare function historyBound(deps: HistoryBenchDeps): Promise<void>;
