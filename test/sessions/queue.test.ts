/** SessionQueue (src/sessions/session-queue.ts): order, busy state and idle time for the TTL. Pure, no server. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SessionQueue } from '../../src/sessions/session-queue.js';

describe('session queue', () => {
  it('runs calls one after another in arrival order, and a failure does not stop the queue', async () => {
    const queue = new SessionQueue(Date.now());
    const order: string[] = [];
    const step = (name: string, ms: number, fail = false) =>
      queue.run(async () => {
        order.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, ms));
        order.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([step('a', 30), step('b', 1, true), step('c', 1)]);
    assert.deepEqual(order, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
  });

  it('is busy while a call runs, and never idle then', async () => {
    const queue = new SessionQueue(0);
    assert.equal(queue.idleMsAt(10_000), 10_000);
    let release!: () => void;
    const running = queue.run(() => new Promise<void>((resolve) => (release = resolve)));
    assert.equal(queue.busy, true);
    assert.equal(queue.idleMsAt(Date.now() + 1e9), 0, 'a busy session never expires');
    await new Promise((resolve) => setImmediate(resolve)); // the task starts after the queue's tail settles
    release();
    await running;
    assert.equal(queue.busy, false);
    assert.ok(queue.idleMsAt(Date.now() + 1000) >= 1000);
  });

  it('refuses a call past its bound at once with QUEUE_FULL, keeps what is queued, and an idle session takes any call', async () => {
    const queue = new SessionQueue(Date.now(), { maxCalls: 2, maxBytes: 100 });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const ran: number[] = [];
    const call = (n: number, bytes = 0) =>
      queue.run(async () => {
        await gate;
        ran.push(n);
        return n;
      }, bytes);
    const accepted = [call(1), call(2), call(3)]; // one running, two waiting
    await assert.rejects(call(4), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'QUEUE_FULL');
      assert.match(error.message, /2 calls are already waiting.*--max-queued-calls 2.*Wait for the running call/s);
      return true;
    });
    release();
    assert.deepEqual(await Promise.all(accepted), [1, 2, 3], 'nothing already queued is lost');
    assert.deepEqual(ran, [1, 2, 3]);
    // Bytes: an idle session takes one call above the bound; a second one behind it is refused, a small one is not.
    let hold!: () => void;
    const held = new Promise<void>((resolve) => (hold = resolve));
    const big = queue.run(() => held, 500);
    await assert.rejects(
      queue.run(async () => 0, 1),
      /--max-queued-bytes 100/,
    );
    hold();
    await big;
    assert.equal(await queue.run(async () => 7, 60), 7, 'the bytes of finished calls are released');
    assert.equal(queue.busy, false);
  });
});
