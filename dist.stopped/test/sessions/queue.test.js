/** SessionQueue (src/sessions/session-queue.ts): order, busy state and idle time for the TTL. Pure, no server. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SessionQueue } from '../../src/sessions/session-queue.js';
describe('session queue', () => {
    it('runs calls one after another in arrival order, and a failure does not stop the queue', async () => {
        const queue = new SessionQueue(Date.now());
        const order = [];
        const step = (name, ms, fail = false) => queue.run(async () => {
            order.push(`start ${name}`);
            await new Promise((resolve) => setTimeout(resolve, ms));
            order.push(`end ${name}`);
            if (fail)
                throw new Error(name);
            return name;
        });
        const results = await Promise.allSettled([step('a', 30), step('b', 1, true), step('c', 1)]);
        assert.deepEqual(order, ['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
        assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
    });
    it('is busy while a call runs, and never idle then', async () => {
        const queue = new SessionQueue(0);
        assert.equal(queue.idleSince(10_000), 10_000);
        let release;
        const running = queue.run(() => new Promise((resolve) => (release = resolve)));
        assert.equal(queue.busy, true);
        assert.equal(queue.idleSince(Date.now() + 1e9), 0, 'a busy session never expires');
        await new Promise((resolve) => setImmediate(resolve)); // the task starts after the queue's tail settles
        release();
        await running;
        assert.equal(queue.busy, false);
        assert.ok(queue.idleSince(Date.now() + 1000) >= 1000);
    });
});
