/** boundedSessionLog (src/sessions/session-log.ts): a session's rate and total in the server's log. Pure, no server. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boundedSessionLog } from '../../src/sessions/session-log.js';
import { MAX_LOG_CHARS } from '../../src/wire/limits.js';

/** A bounded log over an array, with a clock the test moves. */
function setup(limits = { bytesPerMinute: 1000, totalBytes: 2500 }) {
  const lines: string[] = [];
  let clock = 0;
  const log = boundedSessionLog(
    (line) => lines.push(line),
    () => 'session process 7',
    limits,
    () => clock,
  );
  return { lines, log, advance: (ms: number) => (clock += ms) };
}

describe('a session’s share of the server log', () => {
  it('logs within the rate, drops the rest of the minute, and counts what it dropped', () => {
    const { lines, log, advance } = setup();
    for (let i = 0; i < 30; i++) log('x'.repeat(99)); // 30 × 99 bytes in one minute: 10 fit
    assert.equal(lines.length, 10);
    assert.equal(lines[0], `[session process 7] ${'x'.repeat(99)}`);
    advance(60_000);
    log('next minute');
    assert.deepEqual(lines.slice(10), [
      '[session process 7] 1980 bytes of output dropped (over 1000 bytes a minute)',
      '[session process 7] next minute',
    ]);
  });

  it('stops for good after the total, with one line that says so', () => {
    const { lines, log, advance } = setup();
    for (let minute = 0; minute < 10; minute++, advance(60_000)) for (let i = 0; i < 20; i++) log('y'.repeat(100));
    const logged = lines.filter((line) => line.endsWith('y'.repeat(100)));
    assert.equal(logged.length, 25, 'the total: 2500 bytes');
    const last = lines.filter((line) => /the rest is dropped/.test(line));
    assert.deepEqual(last, [
      '[session process 7] output logged so far: 2500 bytes, the most a session may log (2500); the rest is dropped',
    ]);
    assert.equal(lines.at(-1), last[0], 'nothing after it, not even a count of what was dropped');
  });

  it('counts bytes, not characters, and cuts a long line', () => {
    const { lines, log } = setup({ bytesPerMinute: 10 * MAX_LOG_CHARS, totalBytes: 100 * MAX_LOG_CHARS });
    log('é'.repeat(MAX_LOG_CHARS * 3));
    assert.equal(lines[0]!.length, '[session process 7] '.length + MAX_LOG_CHARS + 1);
    const { lines: few, log: small } = setup({ bytesPerMinute: 10, totalBytes: 100 });
    small('éééééé'); // 12 bytes in 6 characters
    assert.equal(few.length, 0);
  });
});
