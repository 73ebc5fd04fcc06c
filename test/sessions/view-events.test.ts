/** The view's event log on its own: bounded by events and by bytes per session, oversized events elided, ended logs few. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyOutcome } from '../../src/wire/contract.js';
import { ENDED_KEPT, ViewEvents } from '../../src/sessions/view-events.js';

const finish = (events: ViewEvents, id: string, stdout: string, extra: Partial<ReturnType<typeof emptyOutcome>> = {}) => {
  const started = events.cellStarted(id, 'execute_code', 'print(1)', 30_000);
  assert.ok(started);
  events.cellFinished(id, started.cell, {
    outcome: { ...emptyOutcome(1), stdout, ...extra },
    interrupted: null,
    terminated: null,
    durationMs: 1,
  });
};

describe('ViewEvents', () => {
  it('keeps a session log under --max-history-bytes, dropping the oldest events and counting them', () => {
    const events = new ViewEvents(500, 20_000);
    events.created('a', null, false);
    for (let i = 0; i < 100; i++) finish(events, 'a', 'o'.repeat(1000));
    const log = events.get('a')!;
    assert.ok(log.bytes <= 20_000, String(log.bytes));
    const kept = log.since();
    assert.equal(log.dropped + kept.length, 201);
    assert.equal(kept.at(-1)!.seq, 201);
    assert.equal(kept.at(-1)!.kind, 'cell_finished');
    assert.equal(
      log.bytes,
      kept.reduce((sum, e) => sum + Buffer.byteLength(JSON.stringify(e)), 0),
    );
  });

  it('keeps at most 2 × --max-history-cells + 16 events', () => {
    const events = new ViewEvents(5, 10_000_000);
    events.created('a', null, false);
    for (let i = 0; i < 50; i++) finish(events, 'a', 'x');
    assert.equal(events.get('a')!.since().length, 26);
  });

  it('elides a finished cell larger than the whole bound, with a note, keeping the error type', () => {
    const events = new ViewEvents(500, 10_000);
    events.created('a', null, false);
    finish(events, 'a', 'é'.repeat(50_000), { error: { type: 'ValueError', message: 'm'.repeat(5000), traceback: 't'.repeat(50_000) } });
    const last = events.get('a')!.since().at(-1)!;
    assert.equal(last.kind, 'cell_finished');
    if (last.kind !== 'cell_finished') return;
    assert.match(last.elided ?? '', /more than a session's view log may hold \(--max-history-bytes 10000\)/);
    assert.equal(last.outcome.stdout, '');
    assert.equal(last.outcome.error?.type, 'ValueError');
    assert.ok(events.get('a')!.bytes <= 10_000);
  });

  it('logs files and packages changed outside cells, at most 100 names each, and nothing when nothing changed', () => {
    const events = new ViewEvents(500, 10_000_000);
    events.created('a', null, false);
    events.filesChanged('a', { written: [], deleted: [] });
    events.packagesLoaded('a', [], []);
    assert.equal(events.get('a')!.since().length, 1);
    const written = Array.from({ length: 300 }, (_, i) => ({ path: `f${i}.txt`, size: 1, mtimeMs: 0 }));
    events.filesChanged('a', { written, deleted: ['old.txt'] });
    events.packagesLoaded(
      'a',
      Array.from({ length: 300 }, (_, i) => `p${i}`),
      ['nope'],
    );
    const [files, packages] = events.get('a')!.since(1);
    assert.ok(files?.kind === 'files' && packages?.kind === 'packages');
    assert.equal(files.written.length, 100);
    assert.deepEqual(files.deleted, ['old.txt']);
    assert.equal(packages.loaded.length, 100);
    assert.deepEqual(packages.failed, ['nope']);
  });

  it('elides a files event larger than the whole bound to its count', () => {
    const events = new ViewEvents(500, 10_000);
    events.created('a', null, false);
    const written = Array.from({ length: 100 }, (_, i) => ({ path: `${'d/'.repeat(100)}f${i}`, size: 1, mtimeMs: 0 }));
    events.filesChanged('a', { written, deleted: [] });
    const last = events.get('a')!.since().at(-1)!;
    assert.ok(last.kind === 'files');
    assert.deepEqual(last.written, ['100 files']);
    assert.ok(events.get('a')!.bytes <= 10_000);
  });

  it('cuts an oversized source of a started cell', () => {
    const events = new ViewEvents(500, 10_000);
    events.created('a', null, false);
    events.cellStarted('a', 'execute_code', 'x'.repeat(100_000), 1000);
    assert.ok(events.get('a')!.bytes <= 10_000);
  });

  it('keeps the logs of the last ENDED_KEPT ended sessions only, and tells subscribers in order', () => {
    const events = new ViewEvents(500, 10_000);
    const seen: string[] = [];
    const stop = events.subscribe((log, event) => seen.push(`${log.id}:${event.kind}`));
    for (let i = 0; i < ENDED_KEPT + 5; i++) {
      events.created(`s${i}`, null, false);
      events.ended(`s${i}`, 'closed');
    }
    events.created('live', 'team-a', false);
    assert.equal(events.all().length, ENDED_KEPT + 1);
    assert.equal(events.get('s0'), undefined);
    assert.equal(events.get('live')!.owner, 'team-a');
    stop();
    events.ended('live', 'expired');
    assert.equal(seen.length, 2 * (ENDED_KEPT + 5) + 1);
    assert.equal(events.get('live')!.since().at(-1)!.kind, 'session');
  });

  it('aborts the running cell on interrupt(), and only while one runs', () => {
    const events = new ViewEvents(500, 10_000);
    events.created('a', null, false);
    assert.equal(events.interrupt('a'), false);
    const started = events.cellStarted('a', 'run_file', '%run -i x.py', 1000)!;
    assert.equal(events.interrupt('a'), true);
    assert.equal(started.signal.aborted, true);
    events.cellFinished('a', started.cell, { outcome: emptyOutcome(1), interrupted: 'cancelled', terminated: null, durationMs: 1 });
    assert.equal(events.interrupt('a'), false);
    // The caller's cancellation still reaches the cell through the view's signal.
    const caller = new AbortController();
    const next = events.cellStarted('a', 'execute_code', 'x', 1000, caller.signal)!;
    caller.abort();
    assert.equal(next.signal.aborted, true);
  });

  it("resumes after the last event a viewer saw, with each event's JSON made once", () => {
    const events = new ViewEvents(2, 1_000_000);
    events.created('a', null, false);
    for (let i = 0; i < 30; i++) finish(events, 'a', String(i));
    const log = events.get('a')!;
    const kept = log.loggedSince();
    assert.equal(kept.length, 20);
    assert.deepEqual(
      log.loggedSince(kept[5]!.event.seq).map((l) => l.event.seq),
      kept.slice(6).map((l) => l.event.seq),
    );
    assert.equal(log.loggedSince(0).length, 20);
    assert.equal(log.loggedSince(kept.at(-1)!.event.seq).length, 0);
    assert.equal(kept[0]!.json, JSON.stringify(kept[0]!.event));
  });
});
