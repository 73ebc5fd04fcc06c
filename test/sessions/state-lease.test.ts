/**
 * Leases on saved sessions in a shared --state-dir (src/sessions/state-lease.ts): two or more lease keepers (as
 * two instances' managers hold them) on one real directory, each with its own clock. At most one holds a session;
 * a live lease is refused with its holder's name; a stale one is taken over, by exactly one of several racers; a
 * released one at once; a previous process of the same instance's at once; the loser stops writing.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SessionLeases } from '../../src/sessions/state-lease.js';

const STALE = 30_000;

describe('SessionLeases', () => {
  const root = mkdtempSync(join(tmpdir(), 'state-lease-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  let n = 0;
  /** A fresh state directory with one session directory, and a shared clock the test moves. */
  const fresh = () => {
    const dir = join(root, String(n++));
    const id = `a.${'S'.repeat(32)}`;
    mkdirSync(join(dir, id), { recursive: true, mode: 0o700 });
    const clock = { now: 1_000_000 };
    const keeper = (instance: string) => new SessionLeases(dir, instance, STALE, () => clock.now);
    return { dir, id, clock, keeper };
  };

  it('one holder at a time: the other is told who holds it, while it is renewed', async () => {
    const { dir, id, clock, keeper } = fresh();
    const a = keeper('a');
    const b = keeper('b');
    assert.deepEqual(await a.acquire(id), { held: true });
    assert.ok(a.holds(id));
    assert.deepEqual(await b.acquire(id), { held: false, holder: 'a' });
    assert.ok(!b.holds(id));
    // Renewed every third of the stale time, the lease never goes stale.
    for (let i = 0; i < 6; i++) {
      clock.now += STALE / 3;
      assert.equal(await a.renew(id), true);
      assert.deepEqual(await b.acquire(id), { held: false, holder: 'a' });
    }
    const record = JSON.parse(readFileSync(join(dir, id, 'owner.json'), 'utf8')) as { instance: string; renewed_at: number };
    assert.equal(record.instance, 'a');
    assert.equal(record.renewed_at, clock.now);
    assert.ok(!existsSync(join(dir, id, 'owner.lock')), 'no lock is left behind');
  });

  it('a stale lease is taken over; the old holder stops writing and learns it lost it', async () => {
    const { id, clock, keeper } = fresh();
    const a = keeper('a');
    const b = keeper('b');
    await a.acquire(id);
    clock.now += STALE - 1;
    assert.deepEqual(await b.acquire(id), { held: false, holder: 'a' }, 'not stale yet');
    clock.now += 1;
    // a could not renew for STALE (it hung): by its own clock it holds nothing, before it reads anything.
    assert.equal(a.holds(id), false);
    assert.equal(await a.heldElsewhereBy(id), null, 'stale here, nobody holds it yet');
    assert.deepEqual(await b.acquire(id), { held: true });
    assert.equal(await a.heldElsewhereBy(id), 'b');
    assert.equal(await a.renew(id), false);
    assert.deepEqual(await a.acquire(id), { held: false, holder: 'b' });
    assert.equal((await b.holder(id))?.instance, 'b');
  });

  it('a renewal that finds another holder loses the lease, even within its own stale time', async () => {
    const { dir, id, clock, keeper } = fresh();
    const a = keeper('a');
    await a.acquire(id);
    // Another process of instance "a" (a restart after a crash) takes over at once: the old one is dead.
    const restarted = keeper('a');
    assert.deepEqual(await restarted.acquire(id), { held: true });
    clock.now += 1000;
    assert.equal(await a.renew(id), false);
    assert.equal(await a.heldElsewhereBy(id), 'a', 'taken by a process of the same instance');
    assert.equal(a.holds(id), false);
    assert.equal(await restarted.renew(id), true);
    assert.match(readFileSync(join(dir, id, 'owner.json'), 'utf8'), new RegExp(restarted.me.process));
  });

  it("a released lease is free at once; release never deletes another holder's", async () => {
    const { dir, id, keeper } = fresh();
    const a = keeper('a');
    const b = keeper('b');
    await a.acquire(id);
    await a.release(id);
    assert.ok(!existsSync(join(dir, id, 'owner.json')));
    assert.deepEqual(await b.acquire(id), { held: true });
    await a.release(id);
    assert.equal((await b.holder(id))?.instance, 'b');
  });

  it('of five instances racing for a stale lease, exactly one takes it', async () => {
    for (let round = 0; round < 5; round++) {
      const { id, clock, keeper } = fresh();
      await keeper('dead').acquire(id);
      clock.now += STALE;
      const racers = ['b', 'c', 'd', 'e', 'f'].map(keeper);
      const claims = await Promise.all(racers.map((r) => r.acquire(id)));
      const winners = claims.filter((c) => c.held);
      assert.equal(winners.length, 1, JSON.stringify(claims));
      const winner = racers[claims.findIndex((c) => c.held)]!.me.instance;
      for (const claim of claims) if (!claim.held) assert.equal(claim.holder, winner);
    }
  });

  it('of five racing for a free session, exactly one takes it', async () => {
    const { id, keeper } = fresh();
    const racers = ['b', 'c', 'd', 'e', 'f'].map(keeper);
    const claims = await Promise.all(racers.map((r) => r.acquire(id)));
    assert.equal(claims.filter((c) => c.held).length, 1, JSON.stringify(claims));
  });

  it('a lock left by a process that died holding it is broken once stale, not before', async () => {
    const { dir, id, clock, keeper } = fresh();
    const a = keeper('a');
    await a.acquire(id);
    mkdirSync(join(dir, id, 'owner.lock'));
    clock.now = Date.now();
    const b = keeper('b');
    // a's lease is stale by b's clock, but the lock is fresh: b gives up after about a second.
    const started = Date.now();
    assert.deepEqual(await b.acquire(id), { held: false, holder: 'a' });
    assert.ok(Date.now() - started < 5000);
    const old = (Date.now() - 2 * STALE) / 1000;
    utimesSync(join(dir, id, 'owner.lock'), old, old);
    assert.deepEqual(await b.acquire(id), { held: true });
  });
});
