/**
 * Entry point of a session process (process isolation, the default): runs the session's supervisor, which hosts
 * its worker thread, and talks to the server over fd 3, in frames (src/wire/frames.ts); the worker has fd 4,
 * its own pipe to the server for requests and replies (workers/thread/direct-channel.ts). stdin is not connected; stdout
 * and stderr go to the server's log. If the worker's isolate brings this process down, only this session is lost.
 */
import { Socket } from 'node:net';
import { parseRequest, processControlSchema } from '../wire/contract.js';
import { FrameDecoder, writeFrame } from '../wire/frames.js';
import { Supervisor } from './supervisor.js';
import { MAX_SERVER_FRAME_BYTES } from '../wire/limits.js';

/** The worker's own pipe to the server (src/sessions/spawn.ts opens it; workers/thread/direct-channel.ts uses it). */
const DIRECT_CHANNEL_FD = 4;

const channel = new Socket({ fd: 3, readable: true, writable: true });
const decoder = new FrameDecoder(MAX_SERVER_FRAME_BYTES);
let supervisor: Supervisor | null = null;

const exit = (code: number) => {
  // Let what is queued on the channel (the last replies) reach the server first.
  channel.end(() => process.exit(code));
  setTimeout(() => process.exit(code), 1_000).unref();
};

channel.on('data', (chunk: Buffer) => {
  for (const raw of decoder.push(chunk)) {
    const control = processControlSchema.parse(raw);
    if (control.control === 'start') {
      if (supervisor) continue;
      supervisor = new Supervisor(
        control.options,
        (message) => writeFrame(channel, message),
        (description) => {
          process.stderr.write(`worker ended (${description})\n`);
          exit(1);
        },
        DIRECT_CHANNEL_FD,
      );
    } else if (control.control === 'interrupt') {
      supervisor?.interrupt();
    } else if (control.control === 'hold') {
      supervisor?.hold(control.hold);
    } else {
      supervisor?.handle(parseRequest(control.request));
    }
  }
});
// The server went away (or closed the session): nothing left to serve.
channel.on('end', () => process.exit(0));
channel.on('error', () => process.exit(0));
