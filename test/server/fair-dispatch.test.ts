/**
 * The fair dispatcher (src/server/fair-dispatch.ts): tasks start round-robin across keys, FIFO within a key, one per
 * macrotask turn and without waiting for the previous one to finish; a key's queue is bounded; a dropped task never
 * starts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DROPPED, FairDispatcher } from '../../src/server/fair-dispatch.js';

/** Resolves once every task has started (or been dropped). */
const settled = (jobs: { result: Promise<unknown> }[]) => Promise.all(jobs.map((job) => job.result));

describe('FairDispatcher', () => {
  it('serves keys round-robin, each key in FIFO order, whatever the arrival order', async () => {
    const dispatcher = new FairDispatcher<string>(100);
    const started: string[] = [];
    const jobs = [];
    // A floods first; B and C arrive after all of A's tasks.
    for (let i = 1; i <= 5; i++) jobs.push(dispatcher.schedule('A', () => started.push(`A${i}`)));
    jobs.push(
      dispatcher.schedule('B', () => started.push('B1')),
      dispatcher.schedule('B', () => started.push('B2')),
    );
    jobs.push(dispatcher.schedule('C', () => started.push('C1')));
    await settled(jobs);
    assert.deepEqual(started, ['A1', 'B1', 'C1', 'A2', 'B2', 'A3', 'A4', 'A5']);
    assert.equal(dispatcher.size, 0);
  });

  it('starts one task per macrotask turn, so work that arrives between turns is served before the rest of the queue', async () => {
    const dispatcher = new FairDispatcher<string>(100);
    const started: string[] = [];
    const jobs: { result: Promise<unknown> }[] = [1, 2, 3, 4].map((i) =>
      dispatcher.schedule('A', () => {
        started.push(`A${i}`);
        // B arrives while A1 runs (as an HTTP request would, in a later I/O callback).
        if (i === 1) setImmediate(() => jobs.push(dispatcher.schedule('B', () => started.push('B1'))));
      }),
    );
    // Nothing starts synchronously.
    assert.deepEqual(started, []);
    await jobs[0]!.result;
    // A1's turn started A1 only; the microtasks queued by A1 ran before A2 could start.
    assert.deepEqual(started, ['A1']);
    await settled(jobs);
    await jobs[4]!.result;
    assert.deepEqual(started, ['A1', 'A2', 'B1', 'A3', 'A4']);
  });

  it('does not wait for a started task to finish before starting the next one', async () => {
    const dispatcher = new FairDispatcher<string>(100);
    let finish!: () => void;
    const long = dispatcher.schedule('A', () => new Promise<string>((resolve) => (finish = () => resolve('long done'))));
    const short = dispatcher.schedule('A', () => 'short done');
    assert.equal(await short.result, 'short done');
    finish();
    assert.equal(await long.result, 'long done');
  });

  it('bounds each key’s queue (RangeError) without touching the other keys; a started task frees its place', async () => {
    const dispatcher = new FairDispatcher<string>(2);
    const a1 = dispatcher.schedule('A', () => 1);
    const a2 = dispatcher.schedule('A', () => 2);
    assert.throws(() => dispatcher.schedule('A', () => 3), RangeError);
    assert.equal(dispatcher.queued('A'), 2);
    const b = dispatcher.schedule('B', () => 'b');
    // A larger bound given for one call (the class of new clients) applies to that call.
    dispatcher.schedule('A', () => 3, Infinity);
    assert.equal(dispatcher.queued('A'), 3);
    await a1.result;
    assert.equal(await b.result, 'b');
    await a2.result;
    assert.equal(dispatcher.queued('A'), 1);
    dispatcher.schedule('A', () => 4);
    assert.throws(() => dispatcher.schedule('A', () => 5), RangeError);
    assert.throws(() => new FairDispatcher(0), TypeError);
  });

  it('drops a waiting task without starting it; dropping a started task does nothing', async () => {
    const dispatcher = new FairDispatcher<string>(10);
    const started: string[] = [];
    const a1 = dispatcher.schedule('A', () => started.push('A1'));
    const a2 = dispatcher.schedule('A', () => started.push('A2'));
    const b1 = dispatcher.schedule('B', () => started.push('B1'));
    assert.equal(a2.drop(), true);
    assert.equal(a2.drop(), false);
    assert.equal(dispatcher.queued('A'), 1);
    assert.equal(b1.drop(), true);
    // B's queue is gone with its only task: it is no longer in the rotation.
    assert.equal(dispatcher.queued('B'), 0);
    assert.equal(await a2.result, DROPPED);
    assert.equal(await b1.result, DROPPED);
    await a1.result;
    assert.equal(a1.drop(), false);
    assert.deepEqual(started, ['A1']);
    assert.equal(dispatcher.size, 0);
  });

  it('rejects the result of a task that throws or rejects, and goes on with the others', async () => {
    const dispatcher = new FairDispatcher<string>(10);
    const thrown = dispatcher.schedule('A', () => {
      throw new Error('sync');
    });
    const rejected = dispatcher.schedule('A', () => Promise.reject(new Error('async')));
    const fine = dispatcher.schedule('B', () => 'ok');
    await assert.rejects(thrown.result, /sync/);
    await assert.rejects(rejected.result, /async/);
    assert.equal(await fine.result, 'ok');
  });
});
