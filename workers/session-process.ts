/**
 * Entry point of a session process (--isolation process): hosts one session worker thread and relays
 * messages between it and the server over IPC. No user code runs on this thread; if the worker's
 * isolate brings the whole process down, only this session is lost.
 */
import type { HostRequest } from '../src/contract.js';
import { startInThisProcess, type ProcessControl, type SessionThread } from '../src/sessions/spawn.js';

let thread: SessionThread | null = null;
const log = (message: string) => process.stderr.write(`${message}\n`);

process.on('message', (message: HostRequest | ProcessControl) => {
  if ('control' in message) {
    if (message.control === 'start' && !thread) {
      const { init } = message.options;
      // IPC hands the snapshot over as a view that may start at any offset; Pyodide reads it through
      // 32-bit views, so it gets an aligned copy (in shared memory, like the thread isolation passes it).
      let snapshot: Uint8Array | null = null;
      if (init.snapshot) {
        snapshot = new Uint8Array(new SharedArrayBuffer(init.snapshot.byteLength));
        snapshot.set(init.snapshot);
      }
      thread = startInThisProcess({ ...message.options, init: { ...init, snapshot }, log });
      thread.onMessage((raw) => process.send?.(raw));
      thread.onError((error) => log(`worker error: ${error.message}`));
      thread.onExit((description) => {
        log(`worker ended (${description})`);
        process.exit(1);
      });
    } else if (message.control === 'interrupt') {
      thread?.interrupt();
    }
    return;
  }
  thread?.post(message);
});
// The server went away (or closed the session): nothing left to serve.
process.on('disconnect', () => process.exit(0));
