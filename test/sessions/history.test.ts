/** The cell history on its own: bounded by cells and by bytes, an oversized cell elided with a note, never silently. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyOutcome } from '../../src/wire/contract.js';
import { CellHistory } from '../../src/sessions/history.js';

const ran = (n: number, stdout = '', extra: Partial<ReturnType<typeof emptyOutcome>> = {}) => ({
  source: `x = ${n}`,
  outcome: { ...emptyOutcome(n), stdout, ...extra },
  completed: true,
  at: n,
});

describe('CellHistory', () => {
  it('drops the oldest cells past --max-history-bytes and counts them', () => {
    const history = new CellHistory(500, 10_000);
    for (let i = 1; i <= 50; i++) history.add(ran(i, 'o'.repeat(1000)));
    assert.ok(history.bytes <= 10_000, String(history.bytes));
    const kept = history.all().map((c) => c.outcome.execution_count);
    assert.equal(kept.at(-1), 50);
    assert.equal(kept.length, 9, JSON.stringify(kept));
    assert.equal(history.dropped, 41);
    assert.equal(
      history.bytes,
      history.all().reduce((sum, c) => sum + c.bytes, 0),
    );
  });

  it('counts multi-byte text in UTF-8 bytes, display texts and errors included', () => {
    const history = new CellHistory(500, 1_000_000);
    history.add(
      ran(1, 'é', {
        display: [{ mime_type: 'text/html', text: '<b>€</b>' }],
        error: { type: 'E', message: 'm', traceback: 'tb' },
        result: 'r',
      }),
    );
    assert.equal(history.bytes, 'x = 1'.length + 2 + 'text/html'.length + 10 + 1 + 1 + 2 + 1);
  });

  it('keeps a single cell larger than the bound, with its outputs elided and a note saying so', () => {
    const history = new CellHistory(500, 8192);
    history.add(ran(1, 'small'));
    history.add(ran(2, 'o'.repeat(100_000), { error: { type: 'ValueError', message: 'm'.repeat(5000), traceback: 't'.repeat(5000) } }));
    const cells = history.all();
    assert.equal(cells.length, 2, 'the small cell still fits beside the elided one');
    const big = cells[1]!;
    assert.equal(big.outcome.stdout, '');
    assert.equal(big.outcome.error?.type, 'ValueError');
    assert.ok(big.outcome.error!.message.length <= 300);
    assert.match(big.elided!, /took \d+ bytes, more than the whole history may hold \(--max-history-bytes 8192\)/);
    assert.ok(history.bytes <= 8192);
    // Its source too, when the source alone is over the bound.
    history.add({ ...ran(3), source: 's'.repeat(50_000) });
    const last = history.all().at(-1)!;
    assert.ok(last.source.length <= 8192 - 1024);
    assert.match(last.elided!, /its source is cut to its first 7168 of 50000 bytes/);
    assert.ok(history.bytes <= 8192);
  });

  it('keeps the cell bound, and a reset starts again', () => {
    const history = new CellHistory(3, 1_000_000);
    for (let i = 1; i <= 5; i++) history.add(ran(i));
    assert.deepEqual(
      history.all().map((c) => c.outcome.execution_count),
      [3, 4, 5],
    );
    assert.equal(history.dropped, 2);
    history.clear();
    assert.equal(history.bytes, 0);
    assert.equal(history.clearedByReset, 3);
    const none = new CellHistory(0, 1_000_000);
    none.add(ran(1));
    assert.deepEqual([none.all().length, none.dropped, none.bytes], [0, 1, 0]);
  });
});
