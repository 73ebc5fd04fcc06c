/**
 * Sessions booted ahead of demand, and the one place that starts session channels: what every session is started
 * with (WorkerInit), the memory watchdog they share, the memory snapshot of the modern runtime (made by the
 * first worker, cached on disk, and given to every later worker as a copy of its own; with a pure-Python preload set
 * it holds that set imported), and when each session imports its preload set (PreloadScheduler).
 *
 * Sizing: the pool holds --warm-sessions plus the sessions taken in the last minute (at most one per core more), so an
 * agent that opens sessions one after another finds them booted; it boots up to one session per core at once.
 *
 * Foreground first: boots, preloads and priming are background work, held while a call an agent waits on runs
 * (BackgroundGate, src/sessions/background-gate.ts): none starts, every session's steps wait before their next one,
 * and the session processes doing such work are stopped whole (process isolation), except a session a call waits on.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { PyodideMcpError } from '../errors.js';
import type { PreloadReport } from '../wire/contract.js';
import { HARNESS_PATH, MODERN_BOOT_CODE_URLS } from '../paths.js';
import { isPurePython, modernVersion, readModernLock, wheelClosure, type Distribution } from '../python/distribution.js';
import { SnapshotCache } from '../python/snapshot-cache.js';
import { MemoryWatchdog, rssOf } from './memory-watchdog.js';
import type { Config } from '../server/config.js';
import { SessionChannel } from './channel.js';
import { PreloadScheduler } from './preload-scheduler.js';
import { BackgroundGate } from './background-gate.js';

/** Largest frame a session process may send besides file pages: cell outcomes, listings, the boot snapshot. */
const BASE_FRAME_BYTES = 600 * 2 ** 20;
/**
 * Cells each session runs to prime itself once it is idle (workers/thread/prime.ts). Measured (`1+1` over stdio, process
 * isolation, 4,000 calls on a session from the pool, 500 at a time): without it the first 2,000 calls of a session
 * are the slow ones, about 4 times as many calls over 3 ms as later, because its code is still compiled by the
 * baseline tiers; with the cells run before, the worker answers the first 500 calls in 0.24 ms on average instead
 * of 0.37, about what it takes after 3,000 calls. 0.30-0.36 s of one core per session (2,000 cells).
 */
const PRIME_CELLS = 2000;
/** How long a take counts toward the pool's size (see the module comment). */
const DEMAND_WINDOW_MS = 60_000;

export class WarmPool {
  private readonly pool: SessionChannel[] = [];
  private closing = false;
  /** Channels started and not yet ready or failed (warm or taken). */
  private booting = 0;
  /** A warm session failed to boot: no refill until the next take (no hot retry loop). */
  private refillHeld = false;
  /** When sessions were taken, within DEMAND_WINDOW_MS. */
  private takes: number[] = [];
  private readonly cores = Math.max(1, availableParallelism());
  private readonly preloads: PreloadScheduler;
  /** Channels handed out (their preload goes first, even when they were taken before they were ready). */
  private readonly held = new WeakSet<SessionChannel>();
  /** No session has booted yet: the first boots alone, so that a call made right after start gets it sooner. */
  private firstBoot = true;
  private readonly watchdog = new MemoryWatchdog();
  /** Memory snapshots (modern runtime with nothing preloaded), or null when not used. */
  private readonly snapshots: SnapshotCache | null;
  private snapshot: Uint8Array | null = null;
  private makingSnapshot = false;
  /** Snapshots hold the (pure-Python) preload set imported. */
  private readonly snapshotPreload: boolean;
  /** A worker asked for a snapshot became ready without one: no more tries for this server. */
  private snapshotFailed = false;
  /** Every channel started here and not ended yet (warm or taken): whose background work the gate holds. */
  private readonly channels = new Set<SessionChannel>();
  /** Channels a call waits on (a create on its boot, a cell on its preload): their work is never held. */
  private readonly waitedOn = new Map<SessionChannel, number>();
  /** At the server's exit, stopped session processes are resumed (they then see the closed pipe and exit). */
  private readonly resumeAtExit = () => {
    for (const channel of this.channels) channel.releaseBackground();
  };

  constructor(
    private readonly config: Config,
    private readonly distribution: Distribution,
    private readonly log: (message: string) => void,
    /** Sessions alive now (the pool never grows past --max-sessions with them). */
    private readonly liveSessions: () => number = () => 0,
    /** When background work may run (closed while calls an agent waits on run). */
    private readonly gate = new BackgroundGate(),
  ) {
    this.preloads = new PreloadScheduler(
      Math.max(1, this.cores - 1),
      () => this.booting,
      log,
      config.preload.length > 0,
      PRIME_CELLS,
      () => this.gate.open,
    );
    gate.onChange((open) => (open ? this.releaseAll() : this.holdAll()));
    process.on('exit', this.resumeAtExit);
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
    if (this.snapshot) log(`booting sessions from the memory snapshot ${this.snapshots!.key}`);
    this.refill();
  }

  /**
   * A warm channel that has imported its preload, else a ready one, else the one closest to ready, else a new one;
   * the pool refills in the background. Throws MEMORY_BUDGET, taking nothing, when the session could take the
   * server past --max-total-memory-mb.
   */
  take(): SessionChannel {
    const preloaded = this.pool.findIndex((channel) => channel.isReady && this.preloads.isDone(channel));
    const ready = preloaded >= 0 ? preloaded : this.pool.findIndex((channel) => channel.isReady);
    const at = ready >= 0 ? ready : this.pool.length > 0 ? 0 : -1;
    // A warm session is measured already: what it adds is its growth up to the limit, not the whole limit.
    const warmPid = at >= 0 ? this.pool[at]!.pid : null;
    const over = this.overBudget(warmPid === null ? 0 : (rssOf(warmPid) ?? 0));
    if (over) throw new PyodideMcpError('MEMORY_BUDGET', over);
    const channel = (at >= 0 ? this.pool.splice(at, 1)[0] : undefined) ?? this.start();
    // The create waits on its boot: never held.
    if (!channel.isReady) this.waitOn(channel, channel.ready);
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
  get readyCount(): number {
    return this.pool.filter((channel) => channel.isReady).length;
  }

  /** Warm sessions ready to be taken that have imported the preload set too. */
  get preloadedCount(): number {
    return this.pool.filter((channel) => channel.isReady && this.preloads.isDone(channel)).length;
  }

  /** What the session's preload did if it is done already, else null (it runs in the background). */
  preloadReport(channel: SessionChannel): PreloadReport | null {
    return this.config.preload.length > 0 ? this.preloads.reportOf(channel) : null;
  }

  /** Resolves to what the session's preload imported and what failed, once done (nothing when there is no preload). */
  preloaded(channel: SessionChannel): Promise<PreloadReport> {
    if (this.config.preload.length === 0) return Promise.resolve({ imported: {}, failed: [] });
    const done = this.preloads.whenDone(channel);
    // Someone waits for it (a cell that may import): its steps are not held.
    if (!this.preloads.isDone(channel)) this.waitOn(channel, done);
    return done;
  }

  /** Runs a call an agent waits on: the pool's background work is held meanwhile (BackgroundGate). */
  foreground<T>(work: () => Promise<T>): Promise<T> {
    return this.gate.foreground(work);
  }

  /** Whether background work may run now (the state store's sweeps ask). */
  get backgroundMayRun(): boolean {
    return this.gate.open;
  }

  /** Exempts a channel from the gate until `until` settles: a call waits on it. */
  private waitOn(channel: SessionChannel, until: Promise<unknown>): void {
    this.waitedOn.set(channel, (this.waitedOn.get(channel) ?? 0) + 1);
    channel.releaseBackground();
    const done = () => {
      const left = (this.waitedOn.get(channel) ?? 1) - 1;
      if (left > 0) return void this.waitedOn.set(channel, left);
      this.waitedOn.delete(channel);
      if (!this.gate.open) this.holdOne(channel);
    };
    until.then(done, done);
  }

  /** The gate closed: every channel's background work is held, the processes doing it stopped. */
  private holdAll(): void {
    for (const channel of this.channels) this.holdOne(channel);
  }

  private holdOne(channel: SessionChannel): void {
    if (this.waitedOn.has(channel)) return;
    channel.holdBackground(channel.backgroundRunning);
  }

  /** The gate opened: background work goes on, and what waited for it starts. */
  private releaseAll(): void {
    for (const channel of this.channels) channel.releaseBackground();
    this.refill();
    this.preloads.pump();
  }

  /** How many warm sessions to keep: --warm-sessions plus recent demand (one per core at most), within --max-sessions. */
  private target(): number {
    if (this.config.warmSessions === 0) return 0;
    const now = Date.now();
    const demand = this.takes.filter((at) => now - at < DEMAND_WINDOW_MS).length;
    // Growth only without a snapshot: booting from one takes about a second anyway, and each start copies the snapshot
    // (about 30 MB, 60-75 ms on the event loop), which measured a 30 ms p50 warm create when the pool grew with demand.
    const growth = this.snapshots === null ? Math.min(demand, this.cores) : 0;
    const wanted = this.config.warmSessions + growth;
    return Math.max(0, Math.min(wanted, this.config.maxSessions - this.liveSessions()));
  }

  async close(reason: PyodideMcpError): Promise<void> {
    this.closing = true;
    this.preloads.close();
    process.off('exit', this.resumeAtExit);
    // Opens for good: stopped processes go on, and are ended below.
    this.gate.close();
    await Promise.all(this.pool.splice(0).map((channel) => channel.end(reason)));
  }

  /**
   * Boots channels until the pool holds its target, up to one per core at a time (counting sessions booting for a
   * create that found the pool empty). A boot failure holds refilling until the next take (no hot retry loop).
   */
  private refill(): void {
    // Measured (legacy, 2 cores): two boots at once were both ready 2.8 s after start; one alone is ready in 1.8 s.
    const parallel = this.firstBoot ? 1 : this.cores;
    while (
      !this.closing &&
      !this.refillHeld &&
      // No boot starts while a call an agent waits on runs: it would take the cores (and its start the event loop).
      this.gate.open &&
      this.pool.length < this.target() &&
      this.booting < parallel &&
      this.overBudget(0) === null
    ) {
      const channel = this.start();
      this.pool.push(channel);
      channel.ready.then(
        () => {
          this.firstBoot = false;
          this.refill();
        },
        (error: Error) => {
          const index = this.pool.indexOf(channel);
          if (index < 0) return; // taken meanwhile: its create reports the failure
          this.pool.splice(index, 1);
          if (this.closing) return;
          this.refillHeld = true;
          this.log(`warm pool: a session failed to boot: ${error.message}`);
        },
      );
    }
  }

  /**
   * Why one more session could take the server past its memory budget (--max-total-memory-mb), or null if it fits:
   * the memory measured now (the server's RSS and its session processes'), minus `countedBytes` (what the session to
   * be handed out holds already), plus --max-session-memory-mb.
   */
  private overBudget(countedBytes: number): string | null {
    const { totalMb } = this.config.memoryBudget;
    const sessionMb = this.config.maxSessionMemoryMb;
    const { serverBytes, sessionBytes, sessions } = this.watchdog.measure();
    const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
    const usedMb = mb(serverBytes + sessionBytes - countedBytes);
    if (usedMb + sessionMb <= totalMb) return null;
    return (
      `No memory for another session: ${mb(serverBytes)} MB used by the server` +
      (this.config.isolation === 'thread'
        ? ' (its sessions included: --isolation thread)'
        : ` + ${mb(sessionBytes)} MB by its ${sessions} session processes`) +
      `${countedBytes > 0 ? ` (${mb(countedBytes)} MB of them by the warm session that would be handed out)` : ''}` +
      ` + up to ${sessionMb} MB a new session may grow to (--max-session-memory-mb) would exceed the server's memory budget of ${totalMb} MB (--max-total-memory-mb).` +
      ' Close a session you no longer need with close_session (list_sessions shows them), or wait for an idle one to expire, then retry.' +
      ' The operator can raise --max-total-memory-mb or lower --max-session-memory-mb.'
    );
  }

  /** Starts a session channel with this server's settings. */
  private start(): SessionChannel {
    // The first worker without a snapshot makes one; the others boot from scratch meanwhile.
    const snapshot = this.snapshot;
    const makeSnapshot = this.snapshots !== null && snapshot === null && !this.makingSnapshot && !this.snapshotFailed;
    if (makeSnapshot) this.makingSnapshot = true;
    const { config } = this;
    const channel = new SessionChannel({
      init: {
        runtime: this.distribution.kind,
        distDir: this.distribution.distDir,
        wheelsDir: this.distribution.wheelsDir,
        wheelFiles: this.distribution.wheelFiles,
        emSnippets: this.distribution.emSnippets.sources,
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
      opTimeoutMs: config.opTimeoutMs,
      maxSessionMemoryMb: config.maxSessionMemoryMb,
      watchdog: this.watchdog,
      log: this.log,
      onSnapshot: (data) => {
        this.snapshot = new Uint8Array(data);
        this.snapshots?.store(data);
      },
    });
    this.booting++;
    this.channels.add(channel);
    channel.onEnd(() => this.channels.delete(channel));
    channel.ready.then(
      () => {
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
      },
      (error: unknown) => {
        this.booting--;
        this.preloads.pump();
        if (makeSnapshot) this.makingSnapshot = false;
        // A snapshot that a worker could not boot from is never used again (a worker stopped on purpose,
        // e.g. at shutdown, says nothing about the snapshot).
        const bootFailure = error instanceof PyodideMcpError && (error.code === 'BOOT_FAILED' || error.code === 'WORKER_CRASHED');
        if (snapshot && this.snapshot === snapshot && bootFailure && !this.closing) {
          this.log('a worker failed to boot from the memory snapshot; discarding it');
          this.snapshots?.discard();
          this.snapshot = null;
        }
      },
    );
    return channel;
  }
}

/**
 * What a snapshot holding `preload` imported depends on (the set, and each wheel of its closure by name and sha256),
 * or null when such a snapshot is not possible (a package of the closure is not pure Python, or is not verified).
 * [] when nothing is preloaded.
 */
export function pureClosure(distribution: Distribution, preload: string[]): string[] | null {
  if (preload.length === 0) return [];
  let closure;
  try {
    closure = wheelClosure(readModernLock(distribution.lockFile ?? undefined), preload);
  } catch {
    return null;
  }
  const verified = new Set(distribution.wheelFiles);
  if (!closure.every((pkg) => isPurePython(pkg) && verified.has(pkg.file_name))) return null;
  return [`preload:${preload.join(',')}`, ...closure.map((pkg) => `${pkg.file_name}:${pkg.sha256.toLowerCase()}`)];
}

/**
 * A snapshot holds whatever the boot code left in the interpreter, so a change to that code (the modern
 * adapter and the Python it runs) must not reuse an older snapshot.
 */
function bootCodeHash(): string {
  const hash = createHash('sha256');
  for (const url of MODERN_BOOT_CODE_URLS) hash.update(readFileSync(url));
  return hash.digest('hex');
}
