import { PyodideMcpError } from '../errors.js';
import { type Distribution } from '../python/distribution.js';
import type { Config } from '../server/config.js';
import { SessionChannel } from './channel.js';
export declare class WarmPool {
    private readonly config;
    private readonly distribution;
    private readonly log;
    /** Sessions alive now (the pool never grows past --max-sessions with them). */
    private readonly liveSessions;
    private readonly pool;
    private closing;
    /** Channels started and not yet ready or failed (warm or taken). */
    private booting;
    /** A warm session failed to boot: no refill until the next take (no hot retry loop). */
    private refillHeld;
    /** When sessions were taken, within DEMAND_WINDOW_MS. */
    private takes;
    private readonly cores;
    private readonly preloads;
    /** Channels handed out (their preload goes first, even when they were taken before they were ready). */
    private readonly held;
    /** No session has booted yet: the first boots alone, so that a call made right after start gets it sooner. */
    private firstBoot;
    private readonly watchdog;
    /** Memory snapshots (modern runtime with nothing preloaded), or null when not used. */
    private readonly snapshots;
    private snapshot;
    private makingSnapshot;
    /** Snapshots hold the (pure-Python) preload set imported. */
    private readonly snapshotPreload;
    /** A worker asked for a snapshot became ready without one: no more tries for this server. */
    private snapshotFailed;
    constructor(config: Config, distribution: Distribution, log: (message: string) => void, 
    /** Sessions alive now (the pool never grows past --max-sessions with them). */
    liveSessions?: () => number);
    /**
     * A warm channel that has imported its preload, else a ready one, else the one closest to ready, else a new one;
     * the pool refills in the background.
     */
    take(): SessionChannel;
    /** Warm sessions ready to be taken. */
    get readyCount(): number;
    /** Warm sessions ready to be taken that have imported the preload set too. */
    get preloadedCount(): number;
    /** Resolves to {module: version} once the session has imported the preload set ({} when there is none). */
    preloaded(channel: SessionChannel): Promise<Record<string, string>>;
    /** How many warm sessions to keep: --warm-sessions plus recent demand (one per core at most), within --max-sessions. */
    private target;
    close(reason: PyodideMcpError): Promise<void>;
    /**
     * Boots channels until the pool holds its target, up to one per core at a time (counting sessions booting for a
     * create that found the pool empty). A boot failure holds refilling until the next take (no hot retry loop).
     */
    private refill;
    /** Starts a session channel with this server's settings. */
    private start;
}
/**
 * What a snapshot holding `preload` imported depends on (the set, and each wheel of its closure by name and sha256),
 * or null when such a snapshot is not possible (a package of the closure is not pure Python, or is not verified).
 * [] when nothing is preloaded.
 */
export declare function pureClosure(distribution: Distribution, preload: string[]): string[] | null;
