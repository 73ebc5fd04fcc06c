/** Session ids with and without an instance prefix (--instance-id): format, parsing, and the wrong-instance error. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PyodideMcpError } from '../../src/errors.js';
import { foreignInstanceError, INSTANCE_ID, instanceOf, newSessionId, SESSION_ID } from '../../src/sessions/session-id.js';

describe('session ids', () => {
  it('are 192 random bits in base64url, after "<instance>." when the server has an instance id', () => {
    const plain = newSessionId(null);
    assert.match(plain, /^[A-Za-z0-9_-]{32}$/);
    assert.equal(Buffer.from(plain, 'base64url').length, 24);
    const prefixed = newSessionId('py-3');
    assert.match(prefixed, /^py-3\.[A-Za-z0-9_-]{32}$/);
    assert.equal(Buffer.from(prefixed.slice(5), 'base64url').length, 24);
    assert.notEqual(newSessionId('py-3'), prefixed);
    assert.ok(SESSION_ID.test(plain) && SESSION_ID.test(prefixed));
  });

  it('accept only short lowercase instance ids, and nothing that could be a path as a session id', () => {
    for (const good of ['a', 'py-3', 'x'.repeat(32), 'eu-west-1']) assert.ok(INSTANCE_ID.test(good), good);
    for (const bad of ['', '-a', 'a-', 'Py', 'a.b', 'a_b', 'x'.repeat(33), 'a/b', '..']) assert.ok(!INSTANCE_ID.test(bad), bad);
    const random = 'A'.repeat(32);
    for (const bad of [
      '.',
      '..',
      `.${random}`,
      `..${random}`,
      `a..${random}`,
      `a/${random}`,
      `A.${random}`,
      `a.b.${random}`,
      'A'.repeat(31),
    ]) {
      assert.ok(!SESSION_ID.test(bad), bad);
    }
  });

  it('name their instance', () => {
    const random = 'B'.repeat(32);
    assert.equal(instanceOf(`py-3.${random}`), 'py-3');
    assert.equal(instanceOf(random), null);
    assert.equal(instanceOf(`Not An Id.${random}`), null);
  });

  it('of another instance get WRONG_INSTANCE naming both instances; own and unprefixed ids pass', () => {
    const random = 'C'.repeat(32);
    assert.equal(foreignInstanceError(`py-a.${random}`, 'py-a'), null);
    assert.equal(foreignInstanceError(random, 'py-a'), null, 'ids saved before the server had an instance id stay usable');
    assert.equal(foreignInstanceError('made-up', 'py-a'), null, 'a malformed id is an unknown session, not a routing question');
    const error = foreignInstanceError(`py-b.${random}`, 'py-a');
    assert.ok(error instanceof PyodideMcpError);
    assert.equal(error.code, 'WRONG_INSTANCE');
    assert.match(error.message, /belongs to instance "py-b" but this server is instance "py-a": send the call to instance "py-b"/);
    assert.match(foreignInstanceError(`py-b.${random}`, null)!.message, /this server has no instance id \(--instance-id\)/);
  });
});
