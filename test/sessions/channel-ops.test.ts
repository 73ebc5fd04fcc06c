/** The host's caps on a running cell's live output (LiveCellOutput): its request only, each stream within its limit. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LiveCellOutput, type OutputStream } from '../../src/sessions/channel-ops.js';

const limits = { stdout: 10, stderr: 4, result: 100, traceback: 100 };

function live(id = 7) {
  const got: [OutputStream, string][] = [];
  return { cell: new LiveCellOutput(id, limits, (stream, text) => got.push([stream, text])), got };
}

describe('LiveCellOutput', () => {
  it("passes on the cell's pieces up to each stream's own limit, cutting the piece that crosses it", () => {
    const { cell, got } = live();
    assert.equal(cell.take(7, 'stdout', 'abcdef'), true);
    assert.equal(cell.take(7, 'stderr', 'xy'), true);
    assert.equal(cell.take(7, 'stdout', 'ghijklmnop'), true);
    assert.equal(cell.take(7, 'stdout', 'more'), false, 'stdout is spent');
    assert.equal(cell.take(7, 'stderr', 'zzzz'), true);
    assert.equal(cell.take(7, 'stderr', 'w'), false, 'stderr is spent');
    assert.deepEqual(got, [
      ['stdout', 'abcdef'],
      ['stderr', 'xy'],
      ['stdout', 'ghij'],
      ['stderr', 'zz'],
    ]);
  });

  it('drops pieces of any other request (a late piece of an earlier cell) and empty ones, spending nothing', () => {
    const { cell, got } = live(7);
    assert.equal(cell.take(6, 'stdout', 'late'), false);
    assert.equal(cell.take(8, 'stdout', 'future'), false);
    assert.equal(cell.take(7, 'stdout', ''), false);
    assert.equal(cell.take(7, 'stdout', '0123456789'), true);
    assert.deepEqual(got, [['stdout', '0123456789']]);
  });

  it('passes on at most the limit however many pieces come (a flood of small ones)', () => {
    const { cell, got } = live();
    let passed = 0;
    for (let i = 0; i < 100_000; i++) if (cell.take(7, i % 2 ? 'stdout' : 'stderr', 'x')) passed++;
    assert.equal(passed, limits.stdout + limits.stderr);
    assert.equal(got.map(([, text]) => text).join('').length, limits.stdout + limits.stderr);
  });
});
