/** Host-side caps on cell outcomes (src/sessions/reply-caps.ts). Pure, no server. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emptyOutcome, type CellOutcome } from '../../src/wire/contract.js';
import { capOutcome, jsonBytes, MAX_DISPLAY_ITEMS, MAX_ERROR_TYPE_CHARS, shrinkLongestStrings } from '../../src/sessions/reply-caps.js';

const base: CellOutcome = emptyOutcome(1);
const limits = { stdout: 10, stderr: 10, result: 10, traceback: 20 };

describe('reply caps', () => {
  it('cuts every string field and adds to what the harness reported', () => {
    const capped = capOutcome(
      {
        ...base,
        stdout: 'o'.repeat(25),
        result: 'r'.repeat(11),
        truncated: { stdout: 100 },
        error: { type: 'T'.repeat(MAX_ERROR_TYPE_CHARS + 5), message: 'm'.repeat(30), traceback: 't'.repeat(21) },
        display: Array.from({ length: MAX_DISPLAY_ITEMS + 2 }, () => ({ mime_type: 'text/markdown', text: 'M'.repeat(12) })),
      },
      limits,
    );
    assert.equal(capped.stdout.length, 10);
    assert.equal(capped.result!.length, 10);
    assert.equal(capped.error!.type.length, MAX_ERROR_TYPE_CHARS);
    assert.equal(capped.error!.message.length, 20);
    assert.equal(capped.display.length, MAX_DISPLAY_ITEMS);
    assert.deepEqual(capped.truncated, { stdout: 115, result: 1, error: 15, traceback: 1, display: 2 + MAX_DISPLAY_ITEMS * 2 });
  });

  it('leaves an outcome within the limits as it is', () => {
    assert.deepEqual(capOutcome({ ...base, stdout: 'fine' }, limits), { ...base, stdout: 'fine' });
  });

  it("keeps a value's HTML (for the view) within the result's limit, and drops it past the limit rather than cut it", () => {
    assert.equal(capOutcome({ ...base, result: 'df', result_html: '<table>' }, limits).result_html, '<table>');
    assert.equal(capOutcome({ ...base, result: 'df', result_html: '<table></table>' }, limits).result_html, null);
    assert.equal('result_html' in capOutcome(base, limits), false);
  });

  it('shrinks the longest strings until a budget holds', () => {
    const reply = { stdout: 'a'.repeat(10_000), nested: { text: 'b'.repeat(5_000) }, small: 'c' };
    const cut = shrinkLongestStrings(reply, () => jsonBytes(reply) <= 4_000);
    assert.ok(jsonBytes(reply) <= 4_000);
    assert.ok(cut.stdout! > 0 && cut.nested! > 0);
    assert.equal(reply.small, 'c');
  });
});
