/**
 * When each session imports its preload set (numpy, pandas, …). Sessions are handed out as soon as their interpreter
 * is up; the preload then runs in the background inside the session (workers/preloader.ts), started from here.
 *
 * Why a scheduler: on the 2-core machine this was built on, a scientific preload is 10–12 s of CPU per session. Run
 * as soon as each session is up, five sessions' preloads starved the next sessions' boots and the pool ran dry.
 * So a preload starts only while no session is booting, and at most `slots` run at once (cores − 1, at least 1: a
 * core stays free for the cells agents are waiting on). Sessions an agent holds go before warm ones.
 *
 * After its preload (or at once when nothing is preloaded), a session is warmed up (the `warm_up` request,
 * workers/warm-up.ts): lowest priority, only while no session boots and no preload waits, and the worker stops it at
 * the agent's first request.
 */
import type { SessionChannel } from './channel.js';
export declare class PreloadScheduler {
    private readonly slots;
    private readonly booting;
    private readonly log;
    private readonly preloadSet;
    private readonly warmUpCells;
    private readonly entries;
    /** Waiting entries, first to start first. */
    private readonly queue;
    /** Sessions whose warm-up waits, first to start first. */
    private readonly warmUps;
    private running;
    private closed;
    /**
     * @param slots preloads that may run at once (at least 1)
     * @param booting how many sessions are booting now; preloads wait while any is
     * @param log the server's log
     * @param preloadSet whether there is anything to preload (else each session goes straight to its warm-up)
     * @param warmUpCells cells each session's warm-up runs (0: none)
     */
    constructor(slots: number, booting: () => number, log: (message: string) => void, preloadSet?: boolean, warmUpCells?: number);
    /** Queues a ready session's preload (`urgent`: an agent holds it, so it goes first). Idempotent. */
    add(channel: SessionChannel, urgent?: boolean): void;
    /** Called once per entry: when it is added without a preload, or when its preload is done. */
    private queueWarmUp;
    /** Moves a waiting session to the front (an agent took it from the warm pool). */
    prioritize(channel: SessionChannel): void;
    /** True once the session has imported its preload set. */
    isDone(channel: SessionChannel): boolean;
    /** Resolves to {module: version} once the session has imported its preload set; rejects if it could not. */
    whenDone(channel: SessionChannel): Promise<Record<string, string>>;
    /** The end of a held session's grace, with a pump scheduled for then. */
    private graceEnd;
    /** Starts what may start now; call whenever a boot ends. */
    pump(): void;
    private startWarmUp;
    /** Starts nothing more (shutdown). */
    close(): void;
}
