/** Slots (src/sessions/slots.ts): the counting semaphore that bounds exports running at once. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Slots } from '../../src/sessions/slots.js';

describe('Slots', () => {
  it('runs at most `size` tasks at once, in arrival order, and frees a slot when a task fails', async () => {
    const slots = new Slots(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const releases: (() => void)[] = [];
    const task = (n: number) =>
      slots.run(async () => {
        running++;
        most = Math.max(most, running);
        order.push(n);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
        if (n === 1) throw new Error('boom');
        return n;
      });
    const settled = Promise.allSettled([1, 2, 3, 4].map(task));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(order, [1, 2]);
    while (releases.length > 0 || order.length < 4) {
      releases.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const results = await settled;
    assert.equal(results[0]!.status, 'rejected');
    assert.deepEqual(
      results.slice(1).map((r) => (r.status === 'fulfilled' ? r.value : null)),
      [2, 3, 4],
    );
    assert.equal(most, 2);
    assert.deepEqual(order, [1, 2, 3, 4]);
    assert.throws(() => new Slots(0), TypeError);
  });
});
