/**
 * Sessions booted ahead of demand, and the one place that starts session channels: what every session is started
 * with (WorkerInit), the memory watchdog they share, and the memory snapshot of the modern runtime (made by the
 * first worker, cached on disk, and given to every later worker as a copy of its own).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PyodideMcpError } from '../errors.js';
import { HARNESS_PATH, MODERN_ADAPTER_URL } from '../paths.js';
import { modernVersion, type Distribution } from '../python/distribution.js';
import { SnapshotCache } from '../python/snapshot-cache.js';
import { MemoryWatchdog } from '../sandbox/memory-watchdog.js';
import type { Config } from '../server/config.js';
import { SessionChannel } from './channel.js';

/** Largest frame a session process may send besides file pages: cell outcomes, listings, the boot snapshot. */
const BASE_FRAME_BYTES = 600 * 2 ** 20;

export class WarmPool {
  private readonly pool: SessionChannel[] = [];
  private refilling = false;
  private closing = false;
  private readonly watchdog = new MemoryWatchdog();
  /** Memory snapshots (modern runtime with nothing preloaded), or null when not used. */
  private readonly snapshots: SnapshotCache | null;
  private snapshot: Uint8Array | null = null;
  private makingSnapshot = false;

  constructor(
    private readonly config: Config,
    private readonly distribution: Distribution,
    private readonly log: (message: string) => void,
  ) {
    if (config.isolation === 'process' && !this.watchdog.supported) {
      log('--max-session-memory-mb is not enforced on this system (no /proc); engine limits still apply');
    }
    // Snapshots hold only the interpreter's memory: packages' files and loaded shared libraries live
    // outside it, so they are used only for the modern runtime with nothing preloaded.
    this.snapshots =
      distribution.kind === 'modern' && config.preload.length === 0 && config.snapshotDir
        ? new SnapshotCache(config.snapshotDir, [modernVersion(), process.version, bootCodeHash()], log)
        : null;
    const cached = this.snapshots?.load() ?? null;
    // Kept in ordinary (not shared) memory: every worker gets a copy of its own when it is sent (structured clone,
    // or serialization into a session process's frame), so no session can write into memory another boots from.
    this.snapshot = cached ? new Uint8Array(cached) : null;
    if (this.snapshot) log(`booting sessions from the memory snapshot ${this.snapshots!.key}`);
    this.refill();
  }

  /** A ready warm channel, else the one closest to ready, else a new one; the pool refills in the background. */
  take(): SessionChannel {
    const readyIndex = this.pool.findIndex((channel) => channel.isReady);
    const channel = (readyIndex >= 0 ? this.pool.splice(readyIndex, 1)[0] : this.pool.shift()) ?? this.start();
    // After the reply that hands this one over: starting a session copies the snapshot (about 30 MB), which
    // measured 60-75 ms on the event loop and would otherwise delay the create_session reply.
    setTimeout(() => this.refill(), 0).unref();
    return channel;
  }

  /** Warm sessions ready to be taken. */
  get readyCount(): number {
    return this.pool.filter((channel) => channel.isReady).length;
  }

  async close(reason: PyodideMcpError): Promise<void> {
    this.closing = true;
    await Promise.all(this.pool.splice(0).map((channel) => channel.terminate(reason)));
  }

  /**
   * Boots channels until the pool holds --warm-sessions, one at a time so that refilling never takes both cores
   * from running sessions. A boot failure stops this round (no hot retry loop); the next take() starts another.
   */
  private refill(): void {
    if (this.refilling || this.closing) return;
    this.refilling = true;
    void (async () => {
      try {
        while (!this.closing && this.pool.length < this.config.warmSessions) {
          const channel = this.start();
          this.pool.push(channel);
          try {
            await channel.ready;
          } catch (error) {
            this.pool.splice(this.pool.indexOf(channel), 1);
            // At shutdown the pool's own sessions are stopped on purpose: not worth a line.
            if (!this.closing) this.log(`warm pool: a session failed to boot: ${(error as Error).message}`);
            return;
          }
        }
      } finally {
        this.refilling = false;
      }
    })();
  }

  /** Starts a session channel with this server's settings. */
  private start(): SessionChannel {
    // The first worker without a snapshot makes one; the others boot from scratch meanwhile.
    const snapshot = this.snapshot;
    const makeSnapshot = this.snapshots !== null && snapshot === null && !this.makingSnapshot;
    if (makeSnapshot) this.makingSnapshot = true;
    const { config } = this;
    const channel = new SessionChannel({
      init: {
        runtime: this.distribution.kind,
        distDir: this.distribution.distDir,
        wheelsDir: this.distribution.wheelsDir,
        wheelFiles: this.distribution.wheelFiles,
        preload: config.preload,
        harnessPath: HARNESS_PATH,
        fileLimits: config.fileLimits,
        figureFormats: config.figureFormats,
        // Security: copied on the way to the worker (see the constructor), never shared.
        snapshot,
        makeSnapshot,
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
    channel.ready.then(
      () => {
        if (makeSnapshot) this.makingSnapshot = false;
      },
      (error: unknown) => {
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
 * A snapshot holds whatever the boot code left in the interpreter, so a change to that code (the modern
 * adapter) must not reuse an older snapshot.
 */
function bootCodeHash(): string {
  return createHash('sha256').update(readFileSync(MODERN_ADAPTER_URL)).digest('hex');
}
