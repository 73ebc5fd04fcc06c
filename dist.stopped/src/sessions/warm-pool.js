/**
 * Sessions booted ahead of demand, and the one place that starts session channels: what every session is started
 * with (WorkerInit), the memory watchdog they share, the memory snapshot of the modern runtime (made by the
 * first worker, cached on disk, and given to every later worker as a copy of its own; with a pure-Python preload set
 * it holds that set imported), and when each session imports its preload set (PreloadScheduler).
 *
 * Sizing: the pool holds --warm-sessions plus the sessions taken in the last minute (at most one per core more), so an
 * agent that opens sessions one after another finds them booted; it boots up to one session per core at once.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { PyodideMcpError } from '../errors.js';
import { HARNESS_PATH, MODERN_ADAPTER_URL } from '../paths.js';
import { isPurePython, modernVersion, readModernLock, wheelClosure } from '../python/distribution.js';
import { SnapshotCache } from '../python/snapshot-cache.js';
import { MemoryWatchdog } from '../sandbox/memory-watchdog.js';
import { SessionChannel } from './channel.js';
import { PreloadScheduler } from './preload-scheduler.js';
/** Largest frame a session process may send besides file pages: cell outcomes, listings, the boot snapshot. */
const BASE_FRAME_BYTES = 600 * 2 ** 20;
/**
 * Cells each session runs to warm up once it is idle (workers/warm-up.ts). Measured (`1+1` over stdio, process
 * isolation, 4,000 calls on a session from the pool, 500 at a time): without it the first 2,000 calls of a session
 * are the slow ones, about 4 times as many calls over 3 ms as later, because its code is still compiled by the
 * baseline tiers; with the cells run before, the worker answers the first 500 calls in 0.24 ms on average instead
 * of 0.37, about what it takes after 3,000 calls. 0.30-0.36 s of one core per session (2,000 cells).
 */
const WARM_UP_CELLS = 2000;
/** How long a take counts toward the pool's size (see the module comment). */
const DEMAND_WINDOW_MS = 60_000;
export class WarmPool {
    config;
    distribution;
    log;
    liveSessions;
    pool = [];
    closing = false;
    /** Channels started and not yet ready or failed (warm or taken). */
    booting = 0;
    /** A warm session failed to boot: no refill until the next take (no hot retry loop). */
    refillHeld = false;
    /** When sessions were taken, within DEMAND_WINDOW_MS. */
    takes = [];
    cores = Math.max(1, availableParallelism());
    preloads;
    /** Channels handed out (their preload goes first, even when they were taken before they were ready). */
    held = new WeakSet();
    /** No session has booted yet: the first boots alone, so that a call made right after start gets it sooner. */
    firstBoot = true;
    watchdog = new MemoryWatchdog();
    /** Memory snapshots (modern runtime with nothing preloaded), or null when not used. */
    snapshots;
    snapshot = null;
    makingSnapshot = false;
    /** Snapshots hold the (pure-Python) preload set imported. */
    snapshotPreload;
    /** A worker asked for a snapshot became ready without one: no more tries for this server. */
    snapshotFailed = false;
    constructor(config, distribution, log, 
    /** Sessions alive now (the pool never grows past --max-sessions with them). */
    liveSessions = () => 0) {
        this.config = config;
        this.distribution = distribution;
        this.log = log;
        this.liveSessions = liveSessions;
        this.preloads = new PreloadScheduler(Math.max(1, this.cores - 1), () => this.booting, log, config.preload.length > 0, WARM_UP_CELLS);
        if (config.isolation === 'process' && !this.watchdog.supported) {
            log('--max-session-memory-mb is not enforced on this system (no /proc); engine limits still apply');
        }
        // Snapshots hold only the interpreter's memory: packages' files and loaded shared libraries live outside it.
        // So they are used for the modern runtime with nothing preloaded, or with a preload set that is pure Python
        // (its files are unpacked again from the same verified wheels after a restore); not with compiled packages.
        const snapshotPreload = distribution.kind === 'modern' ? pureClosure(distribution, config.preload) : null;
        this.snapshotPreload = config.preload.length > 0 && snapshotPreload !== null;
        this.snapshots =
            snapshotPreload && config.snapshotDir
                ? new SnapshotCache(config.snapshotDir, [modernVersion(), process.version, bootCodeHash(), ...snapshotPreload], log)
                : null;
        if (distribution.kind === 'modern' && config.preload.length > 0 && snapshotPreload === null && config.snapshotDir)
            log('no memory snapshot: the preload set has compiled packages, whose shared libraries a snapshot cannot hold');
        const cached = this.snapshots?.load() ?? null;
        // Kept in ordinary (not shared) memory: every worker gets a copy of its own when it is sent (structured clone,
        // or serialization into a session process's frame), so no session can write into memory another boots from.
        this.snapshot = cached ? new Uint8Array(cached) : null;
        if (this.snapshot)
            log(`booting sessions from the memory snapshot ${this.snapshots.key}`);
        this.refill();
    }
    /**
     * A warm channel that has imported its preload, else a ready one, else the one closest to ready, else a new one;
     * the pool refills in the background.
     */
    take() {
        const preloaded = this.pool.findIndex((channel) => channel.isReady && this.preloads.isDone(channel));
        const ready = preloaded >= 0 ? preloaded : this.pool.findIndex((channel) => channel.isReady);
        const channel = (ready >= 0 ? this.pool.splice(ready, 1)[0] : this.pool.shift()) ?? this.start();
        // An agent holds it now: its preload goes before the warm sessions'.
        this.held.add(channel);
        this.preloads.prioritize(channel);
        const now = Date.now();
        this.takes = [...this.takes.filter((at) => now - at < DEMAND_WINDOW_MS), now];
        this.refillHeld = false;
        // After the reply that hands this one over: starting a session copies the snapshot (about 30 MB), which
        // measured 60-75 ms on the event loop and would otherwise delay the create_session reply.
        setTimeout(() => this.refill(), 0).unref();
        return channel;
    }
    /** Warm sessions ready to be taken. */
    get readyCount() {
        return this.pool.filter((channel) => channel.isReady).length;
    }
    /** Warm sessions ready to be taken that have imported the preload set too. */
    get preloadedCount() {
        return this.pool.filter((channel) => channel.isReady && this.preloads.isDone(channel)).length;
    }
    /** Resolves to {module: version} once the session has imported the preload set ({} when there is none). */
    preloaded(channel) {
        return this.config.preload.length > 0 ? this.preloads.whenDone(channel) : Promise.resolve({});
    }
    /** How many warm sessions to keep: --warm-sessions plus recent demand (one per core at most), within --max-sessions. */
    target() {
        if (this.config.warmSessions === 0)
            return 0;
        const now = Date.now();
        const demand = this.takes.filter((at) => now - at < DEMAND_WINDOW_MS).length;
        // Growth only without a snapshot: booting from one takes about a second anyway, and each start copies the snapshot
        // (about 30 MB, 60-75 ms on the event loop), which measured a 30 ms p50 warm create when the pool grew with demand.
        const growth = this.snapshots === null ? Math.min(demand, this.cores) : 0;
        const wanted = this.config.warmSessions + growth;
        return Math.max(0, Math.min(wanted, this.config.maxSessions - this.liveSessions()));
    }
    async close(reason) {
        this.closing = true;
        this.preloads.close();
        await Promise.all(this.pool.splice(0).map((channel) => channel.terminate(reason)));
    }
    /**
     * Boots channels until the pool holds its target, up to one per core at a time (counting sessions booting for a
     * create that found the pool empty). A boot failure holds refilling until the next take (no hot retry loop).
     */
    refill() {
        // Measured (legacy, 2 cores): two boots at once were both ready 2.8 s after start; one alone is ready in 1.8 s.
        const parallel = this.firstBoot ? 1 : this.cores;
        while (!this.closing && !this.refillHeld && this.pool.length < this.target() && this.booting < parallel) {
            const channel = this.start();
            this.pool.push(channel);
            channel.ready.then(() => {
                this.firstBoot = false;
                this.refill();
            }, (error) => {
                const index = this.pool.indexOf(channel);
                if (index < 0)
                    return; // taken meanwhile: its create reports the failure
                this.pool.splice(index, 1);
                if (this.closing)
                    return;
                this.refillHeld = true;
                this.log(`warm pool: a session failed to boot: ${error.message}`);
            });
        }
    }
    /** Starts a session channel with this server's settings. */
    start() {
        // The first worker without a snapshot makes one; the others boot from scratch meanwhile.
        const snapshot = this.snapshot;
        const makeSnapshot = this.snapshots !== null && snapshot === null && !this.makingSnapshot && !this.snapshotFailed;
        if (makeSnapshot)
            this.makingSnapshot = true;
        const { config } = this;
        const channel = new SessionChannel({
            init: {
                runtime: this.distribution.kind,
                distDir: this.distribution.distDir,
                wheelsDir: this.distribution.wheelsDir,
                wheelFiles: this.distribution.wheelFiles,
                lockFile: this.distribution.lockFile,
                preload: config.preload,
                harnessPath: HARNESS_PATH,
                fileLimits: config.fileLimits,
                figureFormats: config.figureFormats,
                // Security: copied on the way to the worker (see the constructor), never shared.
                snapshot,
                makeSnapshot,
                snapshotPreload: this.snapshotPreload && (snapshot !== null || makeSnapshot),
            },
            isolation: config.isolation,
            maxHeapMb: config.maxHeapMb,
            maxWasmMemoryMb: config.maxMemoryMb,
            maxFrameBytes: BASE_FRAME_BYTES + Math.max(config.maxReadBytes, config.fileLimits.maxFileBytes),
            interruptGraceMs: config.interruptGraceMs,
            maxSessionMemoryMb: config.maxSessionMemoryMb,
            watchdog: this.watchdog,
            log: this.log,
            onSnapshot: (data) => {
                this.snapshot = new Uint8Array(data);
                this.snapshots?.store(data);
            },
        });
        this.booting++;
        channel.ready.then(() => {
            this.booting--;
            if (makeSnapshot) {
                this.makingSnapshot = false;
                // The worker posts its snapshot before it reports ready; none means it could not make one (it said why).
                if (this.snapshot === null) {
                    this.snapshotFailed = true;
                    this.log('no memory snapshot could be made; sessions boot without one');
                }
            }
            this.preloads.add(channel, this.held.has(channel));
            this.preloads.pump();
        }, (error) => {
            this.booting--;
            this.preloads.pump();
            if (makeSnapshot)
                this.makingSnapshot = false;
            // A snapshot that a worker could not boot from is never used again (a worker stopped on purpose,
            // e.g. at shutdown, says nothing about the snapshot).
            const bootFailure = error instanceof PyodideMcpError && (error.code === 'BOOT_FAILED' || error.code === 'WORKER_CRASHED');
            if (snapshot && this.snapshot === snapshot && bootFailure && !this.closing) {
                this.log('a worker failed to boot from the memory snapshot; discarding it');
                this.snapshots?.discard();
                this.snapshot = null;
            }
        });
        return channel;
    }
}
/**
 * What a snapshot holding `preload` imported depends on (the set, and each wheel of its closure by name and sha256),
 * or null when such a snapshot is not possible (a package of the closure is not pure Python, or is not verified).
 * [] when nothing is preloaded.
 */
export function pureClosure(distribution, preload) {
    if (preload.length === 0)
        return [];
    let closure;
    try {
        closure = wheelClosure(readModernLock(distribution.lockFile ?? undefined), preload);
    }
    catch {
        return null;
    }
    const verified = new Set(distribution.wheelFiles);
    if (!closure.every((pkg) => isPurePython(pkg) && verified.has(pkg.file_name)))
        return null;
    return [`preload:${preload.join(',')}`, ...closure.map((pkg) => `${pkg.file_name}:${pkg.sha256.toLowerCase()}`)];
}
/**
 * A snapshot holds whatever the boot code left in the interpreter, so a change to that code (the modern
 * adapter) must not reuse an older snapshot.
 */
function bootCodeHash() {
    return createHash('sha256').update(readFileSync(MODERN_ADAPTER_URL)).digest('hex');
}
