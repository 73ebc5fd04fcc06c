/**
 * BackgroundGate (src/sessions/background-gate.ts): closed while calls an agent waits on run and for the linger after
 * them, open otherwise, and never closed for longer than its bound. Pure, no server: events, not timings.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BackgroundGate } from '../../src/sessions/background-gate.js';
import { untilReleased } from '../../workers/thread/preloader.js';

/** Resolves at the gate's next change, with the new state. */
const nextChange = (gate: BackgroundGate) => new Promise<boolean>((resolve) => gate.onChange(resolve));
/** A foreground call that runs until `finish()`. */
function openCall(gate: BackgroundGate): { done: Promise<void>; finish: () => void } {
  let finish!: () => void;
  const done = gate.foreground(() => new Promise<void>((resolve) => (finish = resolve)));
  return { done, finish };
}

describe('background gate', () => {
  // The gate's timers are unref()ed (they never keep a server alive): this keeps the test's event loop running.
  let keepAlive: NodeJS.Timeout;
  before(() => (keepAlive = setInterval(() => {}, 1000)));
  after(() => clearInterval(keepAlive));

  it('closes when a foreground call starts, stays closed between calls that follow each other, and opens after the last', async () => {
    const gate = new BackgroundGate({ lingerMs: 20, maxHoldMs: 600_000, releaseMs: 10 });
    const changes: boolean[] = [];
    gate.onChange((open) => changes.push(open));
    assert.equal(gate.open, true);
    assert.equal(await gate.foreground(async () => gate.open), false);
    // Right after a call the gate is still closed (the linger): the next call of a stream finds it closed.
    assert.equal(gate.open, false);
    await gate.foreground(async () => {});
    const opened = nextChange(gate);
    assert.equal(await opened, true);
    assert.deepEqual(changes, [false, true]);
  });

  it('stays closed while any of several calls runs', async () => {
    const gate = new BackgroundGate({ lingerMs: 1, maxHoldMs: 600_000, releaseMs: 10 });
    const a = openCall(gate);
    const b = openCall(gate);
    a.finish();
    await a.done;
    // b still runs: the linger is not even armed.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(gate.open, false);
    const opened = nextChange(gate);
    b.finish();
    await b.done;
    assert.equal(await opened, true);
  });

  it('opens for its release time after the longest hold, whatever runs, then closes again (nothing starves)', async () => {
    const gate = new BackgroundGate({ lingerMs: 1, maxHoldMs: 30, releaseMs: 30 });
    const long = openCall(gate);
    assert.equal(gate.open, false);
    // Released by the bound while the call still runs…
    assert.equal(await nextChange(gate), true);
    // …then held again, since it still runs.
    assert.equal(await nextChange(gate), false);
    const opened = nextChange(gate);
    long.finish();
    await long.done;
    assert.equal(await opened, true);
  });

  it('a call that starts during a release window leaves the gate open', async () => {
    const gate = new BackgroundGate({ lingerMs: 1, maxHoldMs: 30, releaseMs: 600_000 });
    const long = openCall(gate);
    assert.equal(await nextChange(gate), true);
    assert.equal(await gate.foreground(async () => gate.open), true);
    long.finish();
    await long.done;
    gate.close();
  });

  it('close() opens it for good', async () => {
    const gate = new BackgroundGate({ lingerMs: 600_000, maxHoldMs: 600_000, releaseMs: 600_000 });
    const call = openCall(gate);
    assert.equal(gate.open, false);
    gate.close();
    assert.equal(gate.open, true);
    call.finish();
    await call.done;
    assert.equal(await gate.foreground(async () => gate.open), true);
  });
});

describe("the worker's hold signal (untilReleased, before each background step)", () => {
  it('passes at once when released, and waits while held until the holder lets go', async () => {
    const hold = new Int32Array(new SharedArrayBuffer(4));
    await untilReleased(hold);
    Atomics.store(hold, 0, 1);
    let passed = false;
    const waiting = untilReleased(hold).then(() => (passed = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(passed, false);
    // What Supervisor.hold(false) does.
    Atomics.store(hold, 0, 0);
    Atomics.notify(hold, 0);
    await waiting;
    assert.equal(passed, true);
  });
});
