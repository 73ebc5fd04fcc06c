/**
 * The priming a session runs while it waits (workers/thread/prime.ts): its loop, and, with real session processes,
 * that it leaves nothing an agent can see and stops at an agent's first request.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SessionManager } from '../../src/sessions/manager.js';
import { SerialWork } from '../../workers/thread/preloader.js';
import { prime } from '../../workers/thread/prime.js';
import { eventually, testManager } from '../helpers.js';

const betweenSteps = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('prime (the loop)', () => {
  it('runs the cells asked for, a turn at a time through the queue', async () => {
    const work = new SerialWork();
    let cells = 0;
    const ran = await prime(35, { runCell: async () => void cells++, stop: () => false, work, betweenSteps });
    assert.equal(ran, 35);
    assert.equal(cells, 35);
  });

  it('stops within its turn when a request comes, and the request runs next', async () => {
    const work = new SerialWork();
    const order: string[] = [];
    let requests = 0;
    let cells = 0;
    const running = prime(1000, {
      runCell: async () => {
        cells++;
        // A request arrives during the second turn; it is queued behind that turn, before the third.
        if (cells === 15) {
          requests++;
          void work.run(async () => void order.push(`request after ${cells} cells`));
        }
      },
      stop: () => requests > 0,
      work,
      betweenSteps,
    });
    const ran = await running;
    assert.deepEqual(order, ['request after 15 cells']);
    // The turn that was running when the request came stopped at its next cell.
    assert.equal(ran, 15);
    assert.equal(cells, 15);
  });
});

describe('priming of pool sessions (modern runtime, session processes)', () => {
  let sessions: SessionManager;
  const logs: string[] = [];

  before(() => (sessions = testManager(['--preload', 'none', '--warm-sessions', '1'], (m) => logs.push(m))));
  after(() => sessions.closeAll());

  it('a primed session shows no trace of it: no `_`, count 1, no new names, no cached source', async () => {
    await eventually(async () => logs.some((line) => line.startsWith('warmed up: 2000 cells ')), 60_000, 'the pool session was primed');
    const created = await sessions.create();
    const first = (await sessions.execute(created.id, { code: '_' }, 30_000)).outcome;
    assert.equal(first.error?.type, 'NameError');
    assert.equal(first.execution_count, 1);
    const names = (
      await sessions.execute(
        created.id,
        { code: "import linecache\n(sorted(k for k in dir() if not k.startswith('_')), [k for k in linecache.cache if 'prime' in k])" },
        30_000,
      )
    ).outcome;
    assert.equal(names.error, null);
    assert.equal(names.result, "(['linecache'], [])");
    assert.equal(names.execution_count, 2);
    await sessions.close(created.id);
  });
});

describe('priming of a session an agent holds (no pool)', () => {
  let sessions: SessionManager;
  const logs: string[] = [];

  before(() => (sessions = testManager(['--preload', 'none', '--warm-sessions', '0'], (m) => logs.push(m))));
  after(() => sessions.closeAll());

  it("stops at the agent's first request, which gets the session's own first cell", async () => {
    // Booted for this create: its priming is sent as it becomes ready, and this cell right after.
    const created = await sessions.create();
    const outcome = (await sessions.execute(created.id, { code: 'x = 6 * 7\nx' }, 30_000)).outcome;
    assert.equal(outcome.result, '42');
    assert.equal(outcome.execution_count, 1);
    await eventually(async () => logs.some((line) => line.startsWith('warmed up:')), 30_000, 'the priming ended');
    const cells = Number(/^warmed up: (\d+) cells/.exec(logs.find((line) => line.startsWith('warmed up:'))!)?.[1]);
    assert.ok(cells < 2000, `the priming ran ${cells} cells`);
    assert.equal((await sessions.execute(created.id, { code: 'x, _' }, 30_000)).outcome.result, '(42, 42)');
    await sessions.close(created.id);
  });
});
