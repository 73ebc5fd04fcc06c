/**
 * A running cell's output streamed to the view (docs/view.md, "Output while a cell runs"), with real sessions on both
 * runtimes and both isolations: nothing is asked for without a view; with one, execute_code, run_file and call_function stream what they
 * print before they end; and a session that floods its streams, or calls the worker's forwarding function itself with
 * huge or malformed arguments, gets no more than its limits through, stays alive, and the server holds a fixed bound.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SessionManager } from '../../src/sessions/manager.js';
import type { SessionRegistry } from '../../src/sessions/registry.js';
import { LIVE_BYTES, type LivePiece, type StreamedEvent } from '../../src/sessions/view-events.js';
import { testManager } from '../helpers.js';

/** The channel of a session, for its count of output messages received (nothing else is read through it). */
function outputMessages(manager: SessionManager, id: string): number {
  return (manager as unknown as { sessions: SessionRegistry }).sessions.get(id)!.channel.outputMessages;
}

/** Prints a line, works for about `seconds` (a busy loop: time.sleep does not sleep on the legacy runtime), prints again. */
const slowCell = (seconds: number) =>
  `import time\nprint("first line")\nt = time.time()\nwhile time.time() - t < ${seconds}:\n    pass\nprint("second line")`;

const SETUPS = [
  { runtime: 'modern', isolation: 'process' },
  { runtime: 'legacy', isolation: 'process' },
  { runtime: 'modern', isolation: 'thread' },
] as const;

for (const { runtime, isolation } of SETUPS) {
  describe(`live output of a running cell (${runtime} runtime, --isolation ${isolation})`, () => {
    let manager: SessionManager;
    let id: string;
    before(async () => {
      manager = testManager([
        '--runtime',
        runtime,
        '--isolation',
        isolation,
        '--preload',
        'none',
        '--warm-sessions',
        '0',
        '--max-output-chars',
        '100000',
      ]);
      id = (await manager.create()).id;
    });
    after(() => manager.closeAll());

    /** Runs a cell, collecting the live pieces the view's log passes on meanwhile, and which arrived before it ended. */
    async function watch(source: Parameters<SessionManager['execute']>[1]) {
      const pieces: LivePiece[] = [];
      let ended = false;
      const early: string[] = [];
      const log = manager.viewEvents.get(id)!;
      let heldMax = 0;
      const stop = log.subscribe((e: StreamedEvent) => {
        if (!('live' in e)) return;
        pieces.push(e);
        heldMax = Math.max(heldMax, log.heldLiveBytes);
        if (!ended) early.push(e.event.text);
      });
      const run = await manager.execute(id, source, 60_000);
      ended = true;
      stop();
      return { run, pieces, early: early.join(''), streamed: pieces.map((p) => p.event.text).join(''), heldMax };
    }

    it('asks for nothing without a view, nor with one nobody watches: the session sends no output message', async () => {
      assert.equal(manager.viewEvents.liveOutput, false);
      const before = outputMessages(manager, id);
      const { run, pieces } = await watch({ code: slowCell(0.3) });
      assert.equal(run.outcome.stdout, 'first line\nsecond line\n');
      assert.equal(pieces.length, 0);
      assert.equal(outputMessages(manager, id), before, 'the worker sent output messages nobody asked for');
      manager.viewEvents.enableLiveOutput();
      const unwatched = await manager.execute(id, { code: slowCell(0.3) }, 30_000);
      assert.equal(unwatched.outcome.stdout, 'first line\nsecond line\n');
      assert.equal(outputMessages(manager, id), before, 'a session nobody watches sent output messages');
    });

    it('with a view: execute_code, run_file and call_function stream their output before they end', async () => {
      manager.viewEvents.enableLiveOutput();
      const cell = await watch({ code: slowCell(1) });
      assert.match(cell.early, /^first line\n/, 'the first line came while the cell ran');
      assert.equal(cell.run.outcome.stdout, 'first line\nsecond line\n');
      assert.ok(cell.run.outcome.stdout.startsWith(cell.streamed), 'what streamed is the start of the output');
      assert.deepEqual(
        cell.pieces.map((p) => p.event.chunk),
        cell.pieces.map((_, i) => i),
      );

      await manager.writeFile(id, 'slow.py', new TextEncoder().encode(slowCell(0.3)), { append: false, overwrite: true });
      const file = await watch({ path: 'slow.py' });
      assert.match(file.early, /^first line\n/);

      const noisy = `def noisy(n):\n    import sys\n    print("to stderr", file=sys.stderr)\n    exec(${JSON.stringify(slowCell(0.3))})\n    return n`;
      // stdout's first line comes within 50 ms of stderr's, so it is sent with the second (streams.py, LiveOutput).
      await manager.execute(id, { code: noisy }, 30_000);
      const call = await watch({ call: { name: 'noisy', args: [3], kwargs: {} } });
      assert.equal(call.run.outcome.result, '3');
      assert.match(call.early, /to stderr\n/);
      assert.match(call.streamed, /first line\nsecond line/);
      assert.deepEqual([...new Set(call.pieces.map((p) => p.event.stream))].sort(), ['stderr', 'stdout']);
    });

    it('a flood of 50 MB in small prints passes on at most the limit, holds a fixed bound, and the session lives on', async () => {
      manager.viewEvents.enableLiveOutput();
      const before = outputMessages(manager, id);
      const started = Date.now();
      const flood = await watch({ code: 'chunk = "y" * 999 + "\\n"\nfor _ in range(50_000):\n    print(chunk, end="")' });
      const seconds = (Date.now() - started) / 1000;
      assert.equal(flood.run.outcome.stdout.length, 100_000, 'the reply is capped at --max-output-chars');
      assert.ok(flood.streamed.length <= 100_000, String(flood.streamed.length));
      assert.ok(flood.run.outcome.stdout.startsWith(flood.streamed));
      assert.ok(flood.heldMax <= LIVE_BYTES);
      // The worker's rate: a burst, then 100 a second (live-output.ts), however fast the cell printed.
      const messages = outputMessages(manager, id) - before;
      assert.ok(messages <= 32 + 100 * seconds + 2, `${messages} messages in ${seconds} s`);
      assert.equal(manager.viewEvents.get(id)!.heldLiveBytes, 0, 'dropped when the cell finished');
      assert.equal((await manager.execute(id, { code: '6 * 7' }, 30_000)).outcome.result, '42');
    });

    it('the forwarding function called by user code with huge, malformed or forged arguments: bounded, dropped, harmless', async () => {
      manager.viewEvents.enableLiveOutput();
      const before = outputMessages(manager, id);
      const code = [
        'import pyodide_js',
        'send = pyodide_js._pyodide_mcp_live_output',
        'send("stdout", "start\\n")',
        // Not strings, not a stream: dropped by the worker.
        'for args in [(1, 2), ("stdin", "x"), ("stdout", None), ("stdout", [1, 2]), ("__proto__", "x"), ()]:',
        '    try:',
        '        send(*args)',
        '    except Exception:',
        '        pass',
        // A 10-million-character piece and many quick ones: cut to the chunk size, the limit and the rate.
        'send("stdout", "H" * 10_000_000)',
        'for _ in range(20_000):',
        '    send("stderr", "e" * 100)',
        '"survived"',
      ].join('\n');
      const forged = await watch({ code });
      assert.equal(forged.run.outcome.result, "'survived'");
      assert.match(forged.streamed, /^start\n/);
      const stdout = forged.pieces.filter((p) => p.event.stream === 'stdout').reduce((n, p) => n + p.event.text.length, 0);
      const stderr = forged.pieces.filter((p) => p.event.stream === 'stderr').reduce((n, p) => n + p.event.text.length, 0);
      assert.ok(stdout <= 100_000 && stderr <= 100_000, `${stdout} + ${stderr}`);
      assert.ok(forged.pieces.every((p) => p.event.text.length <= 64 * 1024));
      assert.ok(outputMessages(manager, id) - before <= 32 + 100 * 60, 'rate-limited by the worker');
      // Outside a cell that asked for it (a namespace op runs user code too), nothing is sent.
      await manager.execute(
        id,
        { code: 'class R:\n    def __repr__(self):\n        send("stdout", "from repr")\n        return "R"\nr = R()' },
        30_000,
      );
      const quiet = outputMessages(manager, id);
      await manager.namespace(id, { type: 'list_variables', filter: 'r', max_items: 10, repr_chars: 100 });
      assert.equal(outputMessages(manager, id), quiet);
      assert.equal((await manager.execute(id, { code: '1 + 1' }, 30_000)).outcome.result, '2');
    });
  });
}
