/** The cut of a package's load-failure reason (src/wire/load-reasons.ts), and the host's second cut. Pure, no server. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boundedReason, MAX_LOAD_REASON_BYTES } from '../../src/wire/load-reasons.js';
import { emptyOutcome } from '../../src/wire/contract.js';
import { capFailures, capOutcome } from '../../src/sessions/reply-caps.js';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('load-failure reasons', () => {
  it('keeps a reason that fits as it is, to the byte', () => {
    const reason = "Failed to load dynamic library /lib/x.so: 'Could not load dynamic lib: /lib/x.so\nError: undefined symbol 'y'";
    assert.equal(boundedReason(reason), reason);
    const exact = 'a'.repeat(MAX_LOAD_REASON_BYTES);
    assert.equal(boundedReason(exact), exact);
  });

  it('cuts a longer one to the bound in UTF-8 bytes, whole characters, and says so', () => {
    for (const unit of ['a', 'é', '€', '😀']) {
      const cut = boundedReason(unit.repeat(2000));
      assert.ok(bytes(cut) <= MAX_LOAD_REASON_BYTES, `${unit}: ${bytes(cut)} bytes`);
      assert.ok(bytes(cut) > MAX_LOAD_REASON_BYTES - 8, `${unit}: ${bytes(cut)} bytes`);
      assert.ok(cut.endsWith(' […]'));
      assert.equal(cut.slice(0, -4).replaceAll(unit, ''), '', `${unit}: only whole characters kept`);
      assert.doesNotMatch(cut, /\uFFFD/);
    }
    // A lone surrogate counts as the three bytes it becomes.
    assert.ok(bytes(boundedReason('\uD800x'.repeat(600))) <= MAX_LOAD_REASON_BYTES);
  });

  it('the host cuts the reasons a session sent again: in a cell outcome and in a package load', () => {
    const long = { name: 'mcpbroken', reason: '€'.repeat(1000) };
    const [capped] = capFailures([long]);
    assert.equal(capped!.name, 'mcpbroken');
    assert.ok(bytes(capped!.reason) <= MAX_LOAD_REASON_BYTES);
    const outcome = capOutcome({ ...emptyOutcome(1), failed_packages: [long] }, { stdout: 10, stderr: 10, result: 10, traceback: 10 });
    assert.ok(bytes(outcome.failed_packages[0]!.reason) <= MAX_LOAD_REASON_BYTES);
  });
});
