/** The interrupt buffer as the interpreter polls it (workers/runtime/interrupt-signal.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { losslessSignalView } from '../../workers/runtime/interrupt-signal.js';
/** What both runtimes' poll does with the buffer: read slot 0, then write 0 (see the module's comment). */
function poll(buffer, between = () => { }) {
    const result = buffer[0];
    between();
    buffer[0] = 0;
    return result;
}
describe('losslessSignalView', () => {
    it('hands a raised signal to one poll and clears it', () => {
        const signal = new Int32Array(new SharedArrayBuffer(4));
        const view = losslessSignalView(signal);
        assert.equal(poll(view), 0);
        Atomics.store(signal, 0, 2);
        assert.equal(poll(view), 2);
        assert.equal(Atomics.load(signal, 0), 0);
        assert.equal(poll(view), 0);
    });
    it('keeps a signal raised between the poll’s read and its write, for the next poll', () => {
        const signal = new Int32Array(new SharedArrayBuffer(4));
        const raise = () => Atomics.store(signal, 0, 2);
        // The plain array loses it: the race the view exists for.
        const plain = new Int32Array(signal.buffer);
        assert.equal(poll(plain, raise), 0);
        assert.equal(Atomics.load(signal, 0), 0, 'a plain read-then-zero overwrote the signal');
        const view = losslessSignalView(signal);
        assert.equal(poll(view, raise), 0);
        assert.equal(Atomics.load(signal, 0), 2);
        assert.equal(poll(view), 2);
        // Raised again while a poll that already saw it runs: the same interrupt, delivered once.
        raise();
        assert.equal(poll(view, raise), 2);
        assert.equal(Atomics.load(signal, 0), 0);
    });
});
