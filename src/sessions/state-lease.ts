/**
 * Leases on saved sessions in a --state-dir that several instances share (with --instance-id): at most one server
 * process runs (and replays) a session at a time. A session's directory holds `owner.json`
 *   {instance, process, renewed_at}   (renewed_at: ms since the epoch, by the holder's clock)
 * which its holder renews while the session lives (every third of the stale time) and deletes when it lets the
 * session go (shutdown, drain). Another process takes a session over only when there is no owner file, when the
 * file is stale (not renewed for `staleMs`: its holder died or hangs), or when it names this process's own instance
 * (a previous process of the same --instance-id, which is dead: ids are unique per running instance).
 *
 * Atomicity on a shared file system, with no lock server: a first owner file is created with link() of a complete
 * temp file (fails if one exists, so two racers cannot both create it, and no reader sees a half-written file); every
 * change of an existing one (renewal, takeover, release) is made holding `owner.lock`, a directory made with mkdir
 * (atomic), after reading the file again under it. A holder that could not renew for `staleMs` counts its lease as
 * lost and stops writing the session's state (holds() is false), even before it reads the new owner: a paused
 * process cannot overwrite what the new holder writes. This assumes the instances' clocks agree to well within
 * `staleMs` (NTP) and that mkdir, link and rename are atomic on the volume (local disks, NFSv3+, CephFS, EFS).
 * A lock left by a process that died holding it (a few milliseconds' window) is broken once it is `staleMs` old.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, mkdir, open, rmdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { readRegular, writeAtomic } from './state-files.js';

const OWNER = 'owner.json';
const LOCK = 'owner.lock';
/** Tries for another process's lock, 10-50 ms apart: about a second. */
const LOCK_TRIES = 30;

export interface LeaseRecord {
  /** --instance-id of the holder. */
  instance: string;
  /** Random per server process: tells a restarted instance from the one before it. */
  process: string;
  renewed_at: number;
}

/** The outcome of acquire(): held by this process now, or by another instance (named, so the caller can say where). */
export type LeaseClaim = { held: true } | { held: false; holder: string };

export class SessionLeases {
  /** This process's identity in owner files. */
  readonly me: { instance: string; process: string };
  /** Leases this process holds, by session id, with when each was last written (this process's clock). */
  private readonly held = new Map<string, number>();

  constructor(
    private readonly dir: string,
    instance: string,
    /** A lease not renewed for this long is stale: another instance may take the session over. */
    readonly staleMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.me = { instance, process: randomBytes(9).toString('base64url') };
  }

  /** Whether this process holds the lease of `id` and renewed it recently enough to write the session's state. */
  holds(id: string): boolean {
    const at = this.held.get(id);
    return at !== undefined && this.now() - at < this.staleMs;
  }

  /** The ids whose leases this process holds. */
  ids(): string[] {
    return [...this.held.keys()];
  }

  /** Takes the lease of `id` (whose directory exists), or says which instance holds it. */
  async acquire(id: string): Promise<LeaseClaim> {
    const sessionDir = join(this.dir, id);
    if (await this.createFirst(sessionDir)) return this.took(id);
    const current = await this.read(sessionDir);
    if (current && current.process === this.me.process) return (await this.renew(id)) ? { held: true } : this.claimOf(sessionDir);
    if (current && !this.takeable(current)) return { held: false, holder: current.instance };
    // No readable owner (deleted meanwhile, or unreadable), stale, or a previous process of this instance: take it
    // over under the lock, if it is still so when read again there.
    const outcome = await this.locked(sessionDir, async () => {
      const again = await this.read(sessionDir);
      if (again && again.process !== this.me.process && !this.takeable(again)) return { held: false, holder: again.instance } as const;
      await writeAtomic(sessionDir, OWNER, this.record());
      return { held: true } as const;
    });
    if (outcome === null) return { held: false, holder: current?.instance ?? 'unknown' };
    return outcome.held ? this.took(id) : outcome;
  }

  /** Renews the lease of `id`; false when it is lost (another process took it over, or it was not renewed in time). */
  async renew(id: string): Promise<boolean> {
    if (!this.holds(id)) {
      this.held.delete(id);
      return false;
    }
    const sessionDir = join(this.dir, id);
    const renewed = await this.locked(sessionDir, async () => {
      const current = await this.read(sessionDir);
      if (current?.process !== this.me.process) return false;
      await writeAtomic(sessionDir, OWNER, this.record());
      return true;
    });
    // A lock held by another process right now (a racing takeover attempt): the lease is still ours until it is stale.
    if (renewed === null) return this.holds(id);
    if (renewed) this.held.set(id, this.now());
    else this.held.delete(id);
    return renewed;
  }

  /** Lets the session go (shutdown, drain): its owner file is deleted if it is still this process's. */
  async release(id: string): Promise<void> {
    if (!this.held.delete(id)) return;
    const sessionDir = join(this.dir, id);
    await this.locked(sessionDir, async () => {
      const current = await this.read(sessionDir);
      if (current?.process === this.me.process) await unlink(join(sessionDir, OWNER)).catch(() => {});
    });
  }

  /** Forgets a lease whose session's directory was deleted (closed, expired, dead): the file went with it. */
  forget(id: string): void {
    this.held.delete(id);
  }

  /**
   * For a lease this process lost: the instance of the process that holds it now, or null when none does (it went
   * stale here and nobody took it over yet, or its owner file is gone).
   */
  async heldElsewhereBy(id: string): Promise<string | null> {
    const holder = await this.holder(id);
    return holder && holder.process !== this.me.process ? holder.instance : null;
  }

  /** The current holder of a session, or null (no owner file, or unreadable). */
  async holder(id: string): Promise<LeaseRecord | null> {
    return this.read(join(this.dir, id));
  }

  private async claimOf(sessionDir: string): Promise<LeaseClaim> {
    const current = await this.read(sessionDir);
    return { held: false, holder: current?.instance ?? 'unknown' };
  }

  private took(id: string): LeaseClaim {
    this.held.set(id, this.now());
    return { held: true };
  }

  private takeable(record: LeaseRecord): boolean {
    return record.instance === this.me.instance || this.now() - record.renewed_at >= this.staleMs;
  }

  private record(): string {
    return JSON.stringify({ ...this.me, renewed_at: this.now() } satisfies LeaseRecord);
  }

  /** Creates the first owner file; false when one exists. */
  private async createFirst(sessionDir: string): Promise<boolean> {
    const temp = join(sessionDir, `.lease-${randomBytes(8).toString('hex')}`);
    const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      await handle.writeFile(this.record());
    } finally {
      await handle.close();
    }
    try {
      await link(temp, join(sessionDir, OWNER));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    } finally {
      await unlink(temp).catch(() => {});
    }
  }

  private async read(sessionDir: string): Promise<LeaseRecord | null> {
    const data = await readRegular(join(sessionDir, OWNER), 4096);
    if (!data) return null;
    try {
      const record = JSON.parse(Buffer.from(data).toString('utf8')) as LeaseRecord;
      if (typeof record.instance !== 'string' || typeof record.process !== 'string' || !Number.isFinite(record.renewed_at)) return null;
      return record;
    } catch {
      return null;
    }
  }

  /**
   * Runs `task` holding the session's lock, waiting up to about a second for another process's (a renewal or a
   * takeover takes milliseconds); null when it is still held then. A lock older than the stale time was left by a
   * process that died holding it: it is broken.
   */
  private async locked<T>(sessionDir: string, task: () => Promise<T>): Promise<T | null> {
    const lock = join(sessionDir, LOCK);
    for (let attempt = 0; ; attempt++) {
      try {
        await mkdir(lock, { mode: 0o700 });
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const since = await stat(lock).then(
          (info) => this.now() - info.mtimeMs,
          () => 0,
        );
        if (attempt >= LOCK_TRIES) return null;
        if (since >= this.staleMs) await rmdir(lock).catch(() => {});
        else await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40));
      }
    }
    try {
      return await task();
    } finally {
      await rmdir(lock).catch(() => {});
    }
  }
}
