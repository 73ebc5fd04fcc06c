/**
 * The worker's own pipe to the server (process isolation only): requests arrive here and replies without file
 * bytes leave here, so a call costs no relay through the session process's main thread (the supervisor). Measured
 * before: that relay was 0.3 ms of CPU and two thread wake-ups of every `1+1` round trip.
 *
 * A running cell's live output (`output` messages, live-output.ts) goes here too: on the same pipe as the cell's reply,
 * it reaches the server before it (on the supervisor's, its last pieces raced the reply and were dropped as late).
 *
 * What still goes through the supervisor: everything else that is not a reply (ready, logs, the snapshot, fatal), and
 * replies that carry file bytes, because the supervisor keeps the session's files (SessionFileStore) to answer
 * `read_file` while this worker is busy. Those travel as `{type: 'routed', op, reply}` so that the supervisor,
 * which never saw the request, knows which op's reply to check.
 *
 * Security: the server checks every frame from this pipe exactly as it checks the supervisor's (it trusts nothing
 * of the session process); a broken frame ends this session. The socket lives in this module's closure, created
 * before any user code exists; Python reaching it could only write to its own session's pipe.
 */
import { writeSync } from 'node:fs';
import { Socket } from 'node:net';
import type { MessagePort } from 'node:worker_threads';
// Types only: the contract's runtime (zod) is outside what the worker's permission model lets it read.
import type { Op, SessionRequest } from '../../src/wire/contract.js';
import { CHANGES_ARE_REPLY, CHANGES_IN_OUTCOME } from '../../src/wire/file-change-ops.js';
import { encodeFrame, FrameDecoder } from '../../src/wire/frames.js';
import { MAX_SERVER_FRAME_BYTES } from '../../src/wire/limits.js';

interface ChangeSet {
  written?: unknown[];
  deleted?: unknown[];
  violation?: unknown;
}

export interface DirectChannel {
  /** Starts reading requests (after boot; until then they wait in the pipe). */
  listen(onRequest: (request: SessionRequest) => void): void;
  /** Where the worker's guarded post sends (createGuardedPost): replies here or through the supervisor. */
  readonly router: { postMessage(message: unknown, transfer?: readonly ArrayBuffer[]): void };
}

export function openDirectChannel(fd: number, port: MessagePort): DirectChannel {
  const socket = new Socket({ fd, readable: true, writable: true });
  socket.pause();
  // The server went away or closed the session: the supervisor's channel (fd 3) ends the process.
  socket.on('error', () => {});
  const toSupervisor = port.postMessage.bind(port) as (message: unknown, transfer?: readonly ArrayBuffer[]) => void;
  // A reply goes out with one write(2) when nothing is queued before it (measured, median per reply: 96 us through
  // the stream's cork/write/uncork, 72 us this way); whatever the pipe does not take at once is queued behind it.
  const write = (message: unknown) => {
    const frame = encodeFrame(message);
    let written = 0;
    if (socket.writableLength === 0) {
      try {
        written = writeSync(fd, frame);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      }
    }
    if (written < frame.byteLength) socket.write(written === 0 ? frame : frame.subarray(written));
  };
  /** Requests read and not answered yet: id → op (a routed reply names its op). */
  const pending = new Map<number, Op>();
  const hasFiles = (op: Op, value: unknown): boolean => {
    const changes = (
      CHANGES_IN_OUTCOME.has(op) ? (value as { changes?: ChangeSet } | null)?.changes : CHANGES_ARE_REPLY.has(op) ? value : null
    ) as ChangeSet | null | undefined;
    return !!changes && ((changes.written?.length ?? 0) > 0 || (changes.deleted?.length ?? 0) > 0 || changes.violation !== undefined);
  };
  return {
    listen(onRequest) {
      const decoder = new FrameDecoder(MAX_SERVER_FRAME_BYTES);
      socket.on('data', (chunk: Buffer) => {
        // From the server, which built each request against the contract (as it did for the supervisor's relay).
        for (const request of decoder.push(chunk) as SessionRequest[]) {
          pending.set(request.id, request.type);
          onRequest(request);
        }
      });
      socket.resume();
    },
    router: {
      postMessage(message, transfer) {
        const reply = message as { type?: unknown; id?: unknown; ok?: unknown; value?: unknown };
        if (reply.type === 'output') return write(message);
        const op = reply.type === 'reply' && typeof reply.id === 'number' ? pending.get(reply.id) : undefined;
        if (op === undefined) return toSupervisor(message, transfer);
        pending.delete(reply.id as number);
        if (reply.ok === true && hasFiles(op, reply.value)) return toSupervisor({ type: 'routed', op, reply: message }, transfer);
        write(message);
      },
    },
  };
}
