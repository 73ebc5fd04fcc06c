/**
 * The framing of the pipe between the server and a session process (src/sessions/frames.ts): what a hostile session
 * process can write there is a FrameError (which ends that session), never an exception elsewhere in the server.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeFrame, FrameDecoder, FrameError } from '../src/sessions/frames.js';
describe('session process frames', () => {
    it('round-trips messages split and joined at any byte', () => {
        const messages = [{ type: 'ready', n: 1 }, { type: 'reply', id: 2, ok: true, value: { data: new Uint8Array([1, 2, 3]) } }, 'text'];
        const bytes = Buffer.concat(messages.map(encodeFrame));
        for (const step of [1, 3, 7, bytes.length]) {
            const decoder = new FrameDecoder(1024);
            const got = [];
            for (let i = 0; i < bytes.length; i += step)
                got.push(...decoder.push(bytes.subarray(i, i + step)));
            assert.deepEqual(got, messages);
        }
    });
    it('refuses an oversized frame from its header, before buffering it', () => {
        const decoder = new FrameDecoder(1024);
        const header = Buffer.alloc(4);
        header.writeUInt32BE(2 ** 31, 0);
        assert.throws(() => decoder.push(header), (error) => error instanceof FrameError && /above the limit of 1024/.test(error.message));
    });
    it('refuses garbage that does not decode', () => {
        const decoder = new FrameDecoder(1024);
        const frame = Buffer.concat([Buffer.from([0, 0, 0, 8]), Buffer.from('\xff\xff\xff\xff\xff\xff\xff\xff', 'latin1')]);
        assert.throws(() => decoder.push(frame), FrameError);
    });
});
