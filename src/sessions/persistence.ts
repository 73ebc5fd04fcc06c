/**
 * What the manager saves of its sessions: nothing without --state-dir (NoPersistence), or every change to the
 * state directory (StatePersistence), so that a restart loses no session. The manager calls the same methods either
 * way; only this module knows whether anything reaches the disk.
 */
import type { CellOutcome } from '../wire/contract.js';
import type { Config } from '../server/config.js';
import type { Session } from './registry.js';
import { SessionLeases } from './state-lease.js';
import { StateStore, type LoggedCell, type StoredSession, type StoredSummary } from './state-store.js';

/** A lease this process no longer holds: `takenBy` names the instance that holds it now, or is null when none does yet. */
export interface LostLease {
  id: string;
  takenBy: string | null;
}

/** Where sessions are saved as they change, and read back after a restart. */
export interface Persistence {
  /** A new session (or one just restored) is kept from now on. */
  created(session: Session): Promise<void>;
  /** A call ended: the TTL on disk runs from the last call, as in memory. */
  touched(session: Session): Promise<void>;
  /** A cell ran (a restore replays it). */
  cellRan(session: Session, cell: LoggedCell): Promise<void>;
  /** A call changed the workspace: the bytes of the written files (read from the session's copy) and the deletions. */
  filesChanged(session: Session, changes: CellOutcome['changes']): Promise<void>;
  /** The namespace was reset: no cell before now is replayed. */
  cellsCleared(session: Session): Promise<void>;
  /** Deletes a session's saved state (closed, expired, dead); shutdown keeps it. */
  forget(id: string): Promise<void>;
  /**
   * Whether a (not expired) session with this id is saved; an expired one is deleted on the way. `owner`: the tenant
   * asking; another tenant's session is 'no'.
   */
  status(id: string, owner?: string | null): Promise<'yes' | 'no' | 'expired'>;
  /** A saved session read back for a restore, or null. */
  load(id: string): Promise<StoredSession | null>;
  /** Saved sessions not in `live`. */
  list(live: Set<string>): Promise<StoredSummary[]>;
  /** Deletes the saved sessions (except those in `live`) whose TTL ran out. */
  sweep(live: Set<string>, now?: number): void;
  /**
   * Whether the state directory is shared by instances, with leases (--state-dir with --instance-id,
   * src/sessions/state-lease.ts): a saved session of another instance may then be restored here once its lease
   * is free or stale.
   */
  readonly leased: boolean;
  /** Takes the lease of a saved session before it is restored: null when taken (or there are no leases), else its holder. */
  claim(id: string): Promise<string | null>;
  /**
   * Renews the leases held; returns those lost, to stop running: taken over by another instance (named), or gone stale
   * here (not renewed within --state-lease: this process stalled) with no new holder yet (`takenBy` null).
   */
  renewLeases(): Promise<LostLease[]>;
  /** Lets a session go (shutdown, a failed restore): another instance may restore it at once. */
  release(id: string): Promise<void>;
  /** Lets every held session go. */
  releaseAll(): Promise<void>;
}

/** Without --state-dir: nothing is written to disk, and nothing is ever there to restore. */
export class NoPersistence implements Persistence {
  async created(): Promise<void> {}
  async touched(): Promise<void> {}
  async cellRan(): Promise<void> {}
  async filesChanged(): Promise<void> {}
  async cellsCleared(): Promise<void> {}
  async forget(): Promise<void> {}
  async status(): Promise<'no'> {
    return 'no';
  }
  async load(): Promise<null> {
    return null;
  }
  async list(): Promise<StoredSummary[]> {
    return [];
  }
  sweep(): void {}
  readonly leased = false;
  async claim(): Promise<null> {
    return null;
  }
  async renewLeases(): Promise<LostLease[]> {
    return [];
  }
  async release(): Promise<void> {}
  async releaseAll(): Promise<void> {}
}

/**
 * With --state-dir: each session's changes are written as they happen, for a session that is kept there (not while
 * it is being restored: its state on disk is the one to restore) and still live. A failed write is logged, never the
 * call's failure: the session itself is fine.
 */
export class StatePersistence implements Persistence {
  private readonly store: StateStore;
  /** With --instance-id: this process's leases on its sessions in the (maybe shared) state directory. */
  private readonly leases: SessionLeases | null;

  /**
   * Opens the state directory: throws a UsageError when it cannot be trusted, so the server stops before anything
   * boots. `isLive` tells a live session from one that ended meanwhile (whose state must not be written again).
   */
  constructor(
    private readonly config: Config,
    private readonly isLive: (session: Session) => boolean,
    private readonly log: (message: string) => void,
  ) {
    this.store = StateStore.open(config.stateDir!, {
      ttlMs: config.sessionTtlMs,
      limits: config.fileLimits,
      maxCells: config.maxHistoryCells,
      maxBytes: config.maxHistoryBytes,
      log,
    });
    this.leases = config.instanceId === null ? null : new SessionLeases(this.store.dir, config.instanceId, config.stateLeaseMs);
    this.sweep(new Set());
  }

  get leased(): boolean {
    return this.leases !== null;
  }

  created(session: Session): Promise<void> {
    // A new id: its lease is taken at once (no other process can know the id yet). A restored session's was taken by claim().
    return this.saving(
      session,
      async () => {
        await this.store.create(session.id, session.createdAt, session.createdAt, session.owner);
        if (this.leases && !this.leases.holds(session.id)) await this.leases.acquire(session.id);
      },
      false,
    );
  }

  async claim(id: string): Promise<string | null> {
    if (!this.leases) return null;
    const claim = await this.leases.acquire(id);
    return claim.held ? null : claim.holder;
  }

  async renewLeases(): Promise<LostLease[]> {
    const leases = this.leases;
    if (!leases) return [];
    // All at once, not one after another: each renewal is a few file operations on the libuv thread pool, and on a
    // busy instance (sessions booting and restoring, 100+ ms per operation seen) one after another made the last of
    // 10 sessions wait for the 50 operations before it, past a --state-lease of 8 s: the instance gave up sessions
    // nobody else held.
    const ids = leases.ids();
    const kept = await Promise.all(
      ids.map((id) =>
        leases.renew(id).catch((error: Error) => {
          this.log(`session ${id}: lease not renewed: ${error.message}`);
          return leases.holds(id);
        }),
      ),
    );
    const lost = ids.filter((_, i) => !kept[i]);
    return Promise.all(lost.map(async (id) => ({ id, takenBy: await leases.heldElsewhereBy(id).catch(() => null) })));
  }

  async release(id: string): Promise<void> {
    await this.leases?.release(id).catch((error: Error) => this.log(`session ${id}: lease not released: ${error.message}`));
  }

  async releaseAll(): Promise<void> {
    for (const id of this.leases?.ids() ?? []) await this.release(id);
  }

  touched(session: Session): Promise<void> {
    return this.saving(session, () => this.store.touch(session.id, session.createdAt, Date.now(), session.owner));
  }

  cellRan(session: Session, cell: LoggedCell): Promise<void> {
    return this.saving(session, () => this.store.appendCell(session.id, cell));
  }

  async filesChanged(session: Session, changes: CellOutcome['changes']): Promise<void> {
    if (changes.written.length === 0 && changes.deleted.length === 0) return;
    await this.saving(session, async () => {
      const written = [];
      for (const file of changes.written) {
        const page = await session.channel.request({
          type: 'read_file',
          path: file.path,
          offset: 0,
          length: this.config.fileLimits.maxFileBytes,
        });
        written.push({ path: file.path, data: page.data });
      }
      await this.store.applyFiles(session.id, written, changes.deleted);
    });
  }

  cellsCleared(session: Session): Promise<void> {
    return this.saving(session, () => this.store.clearCells(session.id));
  }

  async forget(id: string): Promise<void> {
    this.leases?.forget(id);
    await this.store.remove(id).catch((error: Error) => this.log(`session ${id}: saved state not deleted: ${error.message}`));
  }

  status(id: string, owner: string | null = null): Promise<'yes' | 'no' | 'expired'> {
    return this.store.has(id, Date.now(), owner);
  }

  load(id: string): Promise<StoredSession | null> {
    return this.store.load(id);
  }

  list(live: Set<string>): Promise<StoredSummary[]> {
    return this.store.list(live);
  }

  sweep(live: Set<string>, now = Date.now()): void {
    void this.store.sweep(live, now).catch((error: Error) => this.log(`state sweep failed: ${error.message}`));
  }

  /**
   * Runs a write of a kept, live session's state. With leases, only while this process holds the session's lease:
   * a process that lost it (or could not renew it in time) must not write over what the new holder writes.
   */
  private async saving(session: Session, write: () => Promise<void>, leased = true): Promise<void> {
    if (!session.persist || !this.isLive(session)) return;
    if (leased && this.leases && !this.leases.holds(session.id)) return;
    try {
      await write();
    } catch (error) {
      this.log(`session ${session.id}: state not saved: ${(error as Error).message}`);
    }
  }
}
