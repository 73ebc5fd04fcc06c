/** SessionRegistry (src/sessions/registry.ts): lookups without side effects, TTL expiry, reasons of gone sessions. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PyodideMcpError } from '../../src/errors.js';
import { SessionRegistry } from '../../src/sessions/registry.js';
import { SessionQueue } from '../../src/sessions/session-queue.js';
const session = (id, lastUsedAt) => ({ id, queue: new SessionQueue(lastUsedAt), createdAt: lastUsedAt, executionCount: 0 });
describe('session registry', () => {
    it('finds live sessions and says why others are not there', () => {
        const registry = new SessionRegistry(1000);
        registry.add(session('a', 0));
        assert.equal(registry.find('a', 500).id, 'a');
        assert.throws(() => registry.find('nope', 500), (e) => e.code === 'SESSION_NOT_FOUND');
        registry.bury('a', new PyodideMcpError('SESSION_DEAD', 'Session a no longer exists: it crashed.'));
        assert.throws(() => registry.find('a', 500), /SESSION_DEAD|crashed/);
        assert.equal(registry.size, 0);
    });
    it('reports an idle session as expired without removing it; the sweep list names it', () => {
        const registry = new SessionRegistry(1000);
        registry.add(session('old', 0));
        registry.add(session('fresh', 900));
        assert.throws(() => registry.find('old', 1500), (e) => e.code === 'SESSION_EXPIRED' && /--session-ttl 1 s/.test(e.message));
        assert.equal(registry.size, 2, 'a lookup changes nothing');
        assert.deepEqual(registry.expired(1500).map(([s]) => s.id), ['old']);
    });
    it('remembers a bounded number of gone sessions', () => {
        const registry = new SessionRegistry(1000, 2);
        for (const id of ['x', 'y', 'z'])
            registry.bury(id, new PyodideMcpError('SESSION_NOT_FOUND', `${id} was closed`));
        assert.throws(() => registry.find('x'), /does not exist/);
        assert.throws(() => registry.find('z'), /z was closed/);
    });
});
