/**
 * One session's worker thread: boots a Pyodide runtime and loads the harness (boot.ts), then answers the host's
 * requests one at a time (dispatch.ts, with the dispatch table of ops.ts), with the plain-data messages of
 * src/wire/contract.ts. With process isolation requests and most replies go over its own pipe to the server (fd 4,
 * direct-channel.ts) and the rest through `parentPort` to its supervisor; with thread isolation everything goes
 * through `parentPort`.
 */
import process from 'node:process';
import { parentPort, workerData } from 'node:worker_threads';
import type { SessionMessage, WorkerInit } from '../../src/wire/contract.js';
import { createGuardedPost } from './realm/guarded-post.js';
import { boot } from './boot.js';
import { CellRunner } from './cell.js';
import { openDirectChannel } from './direct-channel.js';
import { RequestDispatcher } from './dispatch.js';
import { createOpHandlers } from './ops.js';
import { toWire } from './worker-errors.js';

const port = parentPort;
if (!port) throw new Error('session.worker must run inside a worker thread');
const init = workerData as WorkerInit & { interruptBuffer: SharedArrayBuffer; holdBuffer: SharedArrayBuffer; channelFd?: number };
// Process isolation: requests and most replies use the worker's own pipe to the server (direct-channel.ts).
const direct = typeof init.channelFd === 'number' ? openDirectChannel(init.channelFd, port) : null;
// Security: postMessage bound now, before user code exists; logs rate-limited, oversized messages refused.
const post = createGuardedPost<SessionMessage>(direct ? direct.router : port);
const send = (message: string) => post({ type: 'log', message });
/**
 * While booting, the runtime's chatter (package loading, interpreter start-up, import warnings) is kept, not sent:
 * a server log line per package per boot is noise. It is sent only when the boot fails, where it helps.
 */
let bootLines: string[] | null = [];
const MAX_BOOT_LINES = 200;
const log = (message: string) => {
  if (!bootLines) send(message);
  else if (bootLines.length < MAX_BOOT_LINES) bootLines.push(message);
};
// A promise the cell's Python left rejected (an asyncio task's JavaScript side, when the time limit's interrupt lands
// inside the task) would otherwise end the whole worker with an empty error: measured about 1 in 12 such timeouts
// under load. It is logged instead; a broken interpreter is still caught by the next call (fatalReason).
process.on('unhandledRejection', (reason) => {
  const err = reason as { type?: unknown; name?: unknown; message?: unknown } | null;
  log(
    `unhandled rejection in the session (ignored): ${String(err?.type ?? err?.name ?? 'error')} ${String(err?.message ?? '').slice(0, 500)}`,
  );
});
const interruptSignal = new Int32Array(init.interruptBuffer);

boot(init, { post, log, endBootLog: () => (bootLines = null), interruptSignal }).then(
  ({ runtime, harness, workspace, liveOutput, info }) => {
    const dispatcher = new RequestDispatcher(post);
    const cells = new CellRunner(runtime, harness, workspace, interruptSignal, liveOutput, log);
    dispatcher.use(
      createOpHandlers({
        runtime,
        harness,
        workspace,
        cells,
        interruptSignal,
        holdSignal: new Int32Array(init.holdBuffer),
        preloadSet: init.preload,
        work: dispatcher.work,
        ended: () => dispatcher.ended,
        agentRequests: () => dispatcher.agentRequests,
      }),
    );
    if (direct) direct.listen(dispatcher.onRequest);
    else port.on('message', dispatcher.onRequest);
    post({ type: 'ready', info });
  },
  (error) => {
    const lines = bootLines ?? [];
    bootLines = null;
    for (const line of lines) log(line);
    post({ type: 'boot_failed', error: toWire(error, 'BOOT_FAILED') });
  },
);
