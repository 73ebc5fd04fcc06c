/**
 * SessionManager: the only owner of session workers. Creates sessions, finds them, runs their cells
 * in order, expires idle ones, enforces --max-sessions, and remembers recently gone sessions so that
 * a late caller is told why a session is gone instead of getting a silent new one.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Config } from '../server/config.js';
import { NEW_SESSION_HINT, PyodideMcpError } from '../errors.js';
import type { CellOutcome, PackageListing, RuntimeInfo } from '../contract.js';
import { SessionWorker, type InterruptReason } from './channel.js';
import { modernVersion, type Distribution } from '../python/distribution.js';
import { HARNESS_PATH, MODERN_ADAPTER_URL } from '../paths.js';
import { SessionFiles, type FileRef } from './file-view.js';
import { SnapshotCache } from '../python/snapshot-cache.js';

/** Public view of a session, as list_sessions reports it. */
export interface SessionSummary {
  session_id: string;
  created_at: string;
  last_used_at: string;
  expires_at: string;
  busy: boolean;
  execution_count: number;
}

interface Session {
  id: string;
  worker: SessionWorker;
  /** Host-side mirror of the workspace, updated from every change set. */
  files: SessionFiles;
  runtime: RuntimeInfo;
  createdAt: number;
  lastUsedAt: number;
  executionCount: number;
  /** Calls queued or running; > 0 means busy. */
  inFlight: number;
  /** Tail of this session's queue: each call starts after the previous one settles. */
  tail: Promise<unknown>;
}

/** The outcome of execute(), with how it ended. */
export interface Execution {
  outcome: CellOutcome;
  /** Files the call created or modified. */
  files: FileRef[];
  interrupted: InterruptReason | null;
  /** Set when the worker had to be terminated: the session no longer exists. */
  terminated: PyodideMcpError | null;
  durationMs: number;
}

/** How many gone sessions we remember for a helpful error; older ones are just "unknown". */
const GRAVEYARD_SIZE = 1000;

export class SessionManager {
  private readonly sessions = new Map<string, Session>();
  private readonly graveyard = new Map<string, PyodideMcpError>();
  /** Sessions being booted count toward --max-sessions too. */
  private booting = 0;
  private readonly sweepTimer: NodeJS.Timeout;
  private closing = false;
  /** Warm pool: workers booted (or booting) ahead of demand; not sessions until create() takes one. */
  private readonly pool: SessionWorker[] = [];
  private refilling = false;
  /** Memory snapshots (modern runtime with nothing preloaded), or null when not used. */
  private readonly snapshots: SnapshotCache | null;
  private snapshot: Uint8Array | null = null;
  private makingSnapshot = false;
  /** Runtime facts of the first worker that booted; the same for every worker of this server. */
  private runtimeFacts: RuntimeInfo | null = null;

  constructor(
    private readonly config: Config,
    readonly distribution: Distribution,
    private readonly log: (message: string) => void,
  ) {
    const every = Math.min(Math.max(config.sessionTtlMs / 4, 250), 60_000);
    this.sweepTimer = setInterval(() => this.sweep(), every);
    // The sweep must never keep the process alive on its own.
    this.sweepTimer.unref();
    // Snapshots hold only the interpreter's memory: packages' files and loaded shared libraries live
    // outside it, so they are used only for the modern runtime with nothing preloaded.
    this.snapshots =
      distribution.kind === 'modern' && config.preload.length === 0 && config.snapshotDir
        ? new SnapshotCache(config.snapshotDir, [modernVersion(), process.version, bootCodeHash()], log)
        : null;
    this.snapshot = this.snapshots?.load() ?? null;
    if (this.snapshot) log(`booting sessions from the memory snapshot ${this.snapshots!.key}`);
    void this.refillPool();
  }

  /** Boots a new session and returns it once its runtime is ready. */
  async create(): Promise<{ id: string; runtime: RuntimeInfo; expiresAt: number }> {
    if (this.closing) throw new PyodideMcpError('SERVER_CLOSING', 'The server is shutting down.');
    if (this.sessions.size + this.booting >= this.config.maxSessions) {
      throw new PyodideMcpError(
        'SESSION_LIMIT',
        `The server already holds ${this.config.maxSessions} sessions (--max-sessions). Close one with close_session (list_sessions shows them), or wait for an idle one to expire.`,
      );
    }
    this.booting++;
    try {
      // Prefer a ready warm worker, else the oldest booting one (closest to ready). Refill in the background.
      const readyIndex = this.pool.findIndex((w) => w.isReady);
      const worker = (readyIndex >= 0 ? this.pool.splice(readyIndex, 1)[0] : this.pool.shift()) ?? this.spawnWorker();
      void this.refillPool();
      let runtime: RuntimeInfo;
      try {
        runtime = await worker.ready;
      } catch (error) {
        await worker.terminate();
        throw error;
      }
      this.runtimeFacts ??= runtime;
      const id = newSessionId();
      const now = Date.now();
      this.sessions.set(id, { id, worker, files: new SessionFiles(id), runtime, createdAt: now, lastUsedAt: now, executionCount: 0, inFlight: 0, tail: Promise.resolve() });
      this.log(`session ${id} created (${runtime.kind} runtime, boot ${runtime.bootMs} ms)`);
      if (this.closing) {
        await this.close(id);
        throw new PyodideMcpError('SERVER_CLOSING', 'The server is shutting down.');
      }
      return { id, runtime, expiresAt: now + this.config.sessionTtlMs };
    } finally {
      this.booting--;
    }
  }

  /**
   * Runtime facts of this server's distribution (python, pyodide, package versions). Known once any
   * worker has booted; until then, waits for the first warm worker, or returns null if there is none.
   */
  async runtimeInfo(): Promise<RuntimeInfo | null> {
    if (this.runtimeFacts) return this.runtimeFacts;
    const first = this.pool[0];
    if (!first) return null;
    return first.ready.catch(() => null);
  }

  /** Warm workers ready to be taken, for server_info. */
  get warmReady(): number {
    return this.pool.filter((worker) => worker.isReady).length;
  }

  /** Packages loaded in a session, and those it could load offline. */
  listPackages(id: string): Promise<PackageListing> {
    return this.enqueue(id, (session) => session.worker.listPackages());
  }

  /**
   * Runs code in a session. Calls on one session run one after another in arrival order; other
   * sessions are unaffected (each has its own thread).
   */
  execute(id: string, source: { code: string } | { path: string }, timeoutMs: number, signal?: AbortSignal): Promise<Execution> {
    return this.enqueue(id, async (session): Promise<Execution> => {
      const started = performance.now();
      try {
        const { outcome, interrupted } = await session.worker.execute({ source, limits: this.config.limits, timeoutMs, signal });
        session.executionCount = outcome.execution_count;
        const files = session.files.apply(outcome.changes);
        return { outcome, files, interrupted, terminated: null, durationMs: performance.now() - started };
      } catch (error) {
        if (!(error instanceof PyodideMcpError) || !['EXEC_TIMEOUT', 'EXEC_CANCELLED', 'WORKER_CRASHED'].includes(error.code)) throw error;
        // The worker is gone: the session is dead. Later calls are told so, with this reason.
        this.bury(id, new PyodideMcpError('SESSION_DEAD', `Session ${id} no longer exists: ${error.message} ${NEW_SESSION_HINT}`));
        await session.worker.terminate(error);
        return { outcome: emptyOutcome(session.executionCount + 1), files: [], interrupted: null, terminated: error, durationMs: performance.now() - started };
      }
    });
  }

  /** Writes a file into a session's workspace, queued behind running code. */
  writeFile(id: string, path: string, data: Uint8Array, options: { append: boolean; overwrite: boolean }): Promise<FileRef> {
    return this.enqueue(id, async (session) => {
      session.files.apply(await session.worker.writeFile(path, data, options.append, options.overwrite));
      const size = session.files.read(path).byteLength;
      return session.files.ref(path, size);
    });
  }

  /** Deletes a file (or empty directory) from a session's workspace, queued behind running code. */
  deleteFile(id: string, path: string): Promise<void> {
    return this.enqueue(id, async (session) => {
      session.files.apply(await session.worker.deleteFile(path));
    });
  }

  /**
   * The host-side view of a session's files: answers at once, even while the session runs code
   * (it shows the files as of the end of the last call).
   */
  filesOf(id: string): SessionFiles {
    return this.get(id).files;
  }

  /** Every file of every live session, for resources/list. */
  allFiles(): FileRef[] {
    return [...this.sessions.values()].flatMap((session) => session.files.allFiles());
  }

  /** Installs a fetched pure-Python wheel into a session, queued like a cell. */
  installWheel(id: string, filename: string, data: Uint8Array): Promise<void> {
    return this.enqueue(id, (session) => session.worker.installWheel(filename, data));
  }

  /** Loads offline packages into a session, queued like a cell. */
  loadPackages(id: string, packages: string[]): Promise<void> {
    return this.enqueue(id, (session) => session.worker.loadPackages(packages));
  }

  /**
   * Runs `task` on a session after every call queued before it (calls on one session run in arrival
   * order); marks the session busy meanwhile. Fails at once for an unknown or gone session, and again
   * when its turn comes if the session died while the call waited.
   */
  private enqueue<T>(id: string, task: (session: Session) => Promise<T>): Promise<T> {
    const session = this.get(id);
    session.inFlight++;
    session.lastUsedAt = Date.now();
    const run = async () => {
      try {
        return await task(this.get(id));
      } finally {
        session.inFlight--;
        session.lastUsedAt = Date.now();
      }
    };
    const result = session.tail.then(run, run);
    session.tail = result.catch(() => {});
    return result;
  }

  list(): SessionSummary[] {
    return [...this.sessions.values()].map((s) => this.summary(s));
  }

  /** Terminates a session's worker and forgets it. Throws if the session does not exist. */
  async close(id: string): Promise<void> {
    const session = this.get(id);
    this.bury(id, new PyodideMcpError('SESSION_NOT_FOUND', `Session ${id} was closed. ${NEW_SESSION_HINT}`));
    await session.worker.terminate(new PyodideMcpError('SESSION_NOT_FOUND', `Session ${id} was closed while this call was running.`));
    this.log(`session ${id} closed`);
  }

  /** Closes sessions idle for longer than the TTL. Busy sessions are never expired mid-call. */
  sweep(now = Date.now()): void {
    for (const session of this.sessions.values()) {
      if (session.inFlight === 0 && now - session.lastUsedAt >= this.config.sessionTtlMs) this.expire(session);
    }
  }

  /** Terminates every worker; later calls fail with SERVER_CLOSING. */
  async closeAll(): Promise<void> {
    this.closing = true;
    clearInterval(this.sweepTimer);
    const closing = new PyodideMcpError('SERVER_CLOSING', 'The server is shutting down.');
    const workers = [...[...this.sessions.values()].map((s) => s.worker), ...this.pool.splice(0)];
    this.sessions.clear();
    await Promise.all(workers.map((worker) => worker.terminate(closing)));
  }

  /**
   * Boots workers until the pool holds --warm-sessions, one at a time so that refilling never takes
   * both cores from running sessions. A boot failure stops this round (no hot retry loop); the next
   * create() starts another.
   */
  private async refillPool(): Promise<void> {
    if (this.refilling) return;
    this.refilling = true;
    try {
      while (!this.closing && this.pool.length < this.config.warmSessions) {
        const worker = this.spawnWorker();
        this.pool.push(worker);
        try {
          const info = await worker.ready;
          this.runtimeFacts ??= info;
        } catch (error) {
          this.pool.splice(this.pool.indexOf(worker), 1);
          this.log(`warm pool: a worker failed to boot: ${(error as Error).message}`);
          return;
        }
      }
    } finally {
      this.refilling = false;
    }
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Finds a live session or throws an error that says why it is not there. */
  private get(id: string): Session {
    const session = this.sessions.get(id);
    if (session) {
      if (session.inFlight === 0 && Date.now() - session.lastUsedAt >= this.config.sessionTtlMs) this.expire(session);
      else return session;
    }
    const gone = this.graveyard.get(id);
    if (gone) throw gone;
    throw new PyodideMcpError('SESSION_NOT_FOUND', `Session ${JSON.stringify(id)} does not exist. ${NEW_SESSION_HINT}`);
  }

  private expire(session: Session): void {
    const idleS = Math.round((Date.now() - session.lastUsedAt) / 1000);
    this.bury(
      session.id,
      new PyodideMcpError('SESSION_EXPIRED', `Session ${session.id} expired after ${idleS} s without use (--session-ttl ${this.config.sessionTtlMs / 1000} s). ${NEW_SESSION_HINT}`),
    );
    void session.worker.terminate();
    this.log(`session ${session.id} expired`);
  }

  private bury(id: string, reason: PyodideMcpError): void {
    this.sessions.delete(id);
    this.graveyard.set(id, reason);
    if (this.graveyard.size > GRAVEYARD_SIZE) this.graveyard.delete(this.graveyard.keys().next().value!);
  }

  private spawnWorker(): SessionWorker {
    // The first worker without a snapshot makes one; the others boot from scratch meanwhile.
    const snapshot = this.snapshot;
    const makeSnapshot = this.snapshots !== null && snapshot === null && !this.makingSnapshot;
    if (makeSnapshot) this.makingSnapshot = true;
    const worker = new SessionWorker({
      init: {
        runtime: this.distribution.kind,
        distDir: this.distribution.distDir,
        wheelsDir: this.distribution.wheelsDir,
        preload: this.config.preload,
        harnessPath: HARNESS_PATH,
        fileLimits: this.config.fileLimits,
        figureFormats: this.config.figureFormats,
        snapshot,
        makeSnapshot,
      },
      maxWasmMemoryMb: this.config.maxMemoryMb,
      isolation: this.config.isolation,
      onSnapshot: (data) => {
        const shared = new Uint8Array(new SharedArrayBuffer(data.byteLength));
        shared.set(data);
        this.snapshot = shared;
        this.snapshots?.store(data);
      },
      maxHeapMb: this.config.maxHeapMb,
      interruptGraceMs: this.config.interruptGraceMs,
      log: this.log,
    });
    worker.ready.then(
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
    return worker;
  }

  private summary(s: Session): SessionSummary {
    return {
      session_id: s.id,
      created_at: new Date(s.createdAt).toISOString(),
      last_used_at: new Date(s.lastUsedAt).toISOString(),
      expires_at: new Date(s.lastUsedAt + this.config.sessionTtlMs).toISOString(),
      busy: s.inFlight > 0,
      execution_count: s.executionCount,
    };
  }
}

/**
 * A snapshot holds whatever the boot code left in the interpreter, so a change to that code (the modern
 * adapter) must not reuse an older snapshot.
 */
function bootCodeHash(): string {
  return createHash('sha256').update(readFileSync(MODERN_ADAPTER_URL)).digest('hex');
}

/** 192 bits from the CSPRNG, base64url: unguessable and safe in URIs. */
function newSessionId(): string {
  return randomBytes(24).toString('base64url');
}

function emptyOutcome(executionCount: number): CellOutcome {
  return {
    stdout: '',
    stderr: '',
    result: null,
    error: null,
    execution_count: executionCount,
    truncated: null,
    loaded_packages: [],
    display: [],
    changes: { written: [], deleted: [] },
  };
}
