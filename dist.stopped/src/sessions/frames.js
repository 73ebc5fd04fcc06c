import { deserialize, serialize } from 'node:v8';
/** A frame that is not a well-formed message: the sender broke the protocol. */
export class FrameError extends Error {
}
const HEADER_BYTES = 4;
/** Encodes one message as a frame. */
export function encodeFrame(message) {
    const [header, body] = frameParts(message);
    return Buffer.concat([header, body], HEADER_BYTES + body.byteLength);
}
/** Writes one message as a frame, header and body as two chunks (no copy of a large body). */
export function writeFrame(stream, message) {
    const [header, body] = frameParts(message);
    stream.cork();
    stream.write(header);
    stream.write(body);
    stream.uncork();
}
function frameParts(message) {
    const body = serialize(message);
    const header = Buffer.allocUnsafe(HEADER_BYTES);
    header.writeUInt32BE(body.byteLength, 0);
    return [header, body];
}
/**
 * Reassembles frames from a byte stream. `push` returns every message completed by a chunk; it throws a
 * FrameError for a frame above `maxFrameBytes` (checked from the header, before any of it is buffered) or one
 * that does not decode.
 */
export class FrameDecoder {
    maxFrameBytes;
    chunks = [];
    buffered = 0;
    constructor(maxFrameBytes) {
        this.maxFrameBytes = maxFrameBytes;
    }
    push(chunk) {
        this.chunks.push(chunk);
        this.buffered += chunk.byteLength;
        const messages = [];
        while (this.buffered >= HEADER_BYTES) {
            const head = this.peek(HEADER_BYTES);
            const length = head.readUInt32BE(0);
            if (length > this.maxFrameBytes)
                throw new FrameError(`a frame of ${length} bytes is above the limit of ${this.maxFrameBytes}`);
            if (this.buffered < HEADER_BYTES + length)
                break;
            const frame = this.take(HEADER_BYTES + length).subarray(HEADER_BYTES);
            try {
                messages.push(deserialize(frame));
            }
            catch (error) {
                throw new FrameError(`a frame of ${length} bytes does not decode (${error.message})`);
            }
        }
        return messages;
    }
    peek(n) {
        if (this.chunks[0].byteLength < n)
            this.chunks = [Buffer.concat(this.chunks)];
        return this.chunks[0].subarray(0, n);
    }
    take(n) {
        const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
        const frame = all.subarray(0, n);
        // A copy, so that a small remainder does not keep a large finished frame alive.
        const rest = Buffer.from(all.subarray(n));
        this.chunks = rest.byteLength > 0 ? [rest] : [];
        this.buffered = rest.byteLength;
        return frame;
    }
}
