/**
 * Framing for the pipe between the server and a session process: each message is a 4-byte big-endian length
 * followed by that many bytes of V8 serialization (structured clone: typed arrays travel as raw bytes).
 *
 * Why not Node's built-in IPC channel: a session process's user code can write to any of its descriptors
 * (Pyodide's Node-mode stdio can be re-pointed at a raw fd), and garbage written to an `advanced`-serialization
 * IPC fd made the SERVER throw `Unable to deserialize cloned data` from inside Node's channel code and exit.
 * Here every byte from a session is parsed by code we own: an oversized, truncated or undecodable frame is a
 * `FrameError`, which the channel turns into the death of that one session.
 */
import type { Writable } from 'node:stream';
/** A frame that is not a well-formed message: the sender broke the protocol. */
export declare class FrameError extends Error {
}
/** Encodes one message as a frame. */
export declare function encodeFrame(message: unknown): Buffer;
/** Writes one message as a frame, header and body as two chunks (no copy of a large body). */
export declare function writeFrame(stream: Writable, message: unknown): void;
/**
 * Reassembles frames from a byte stream. `push` returns every message completed by a chunk; it throws a
 * FrameError for a frame above `maxFrameBytes` (checked from the header, before any of it is buffered) or one
 * that does not decode.
 */
export declare class FrameDecoder {
    private readonly maxFrameBytes;
    private chunks;
    private buffered;
    constructor(maxFrameBytes: number);
    push(chunk: Buffer): unknown[];
    private peek;
    private take;
}
