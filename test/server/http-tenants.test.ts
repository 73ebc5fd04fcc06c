/** Tenants of the HTTP server on their own: the token file's rules, the merge with --auth-token, and the resolver. */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DEFAULT_TENANT, parseTokenFile, readTokenFile, tenantResolver, tenantTokens } from '../../src/server/http-tenants.js';

const A = 'token-of-alice-0123456789';
const B = 'token-of-bob-0123456789ab';
const bearer = (token: string | undefined) => ({ headers: token === undefined ? {} : { authorization: token } });

describe('http tenants', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tenants-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('parses name=token lines, skipping blanks and comments', () => {
    const tenants = parseTokenFile(`# team tokens\n\nalice=${A}\r\n  bob = ${B}  \n`, 'f');
    assert.deepEqual(
      [...tenants],
      [
        ['alice', A],
        ['bob', B],
      ],
    );
  });

  it('refuses bad lines, naming the line and never echoing a token', () => {
    const cases: [string, RegExp][] = [
      ['alice', /f line 1: expected name=token/],
      [`-x=${A}`, /f line 1: bad tenant name/],
      [`al ice=${A}`, /bad tenant name/],
      ['alice=short', /f line 1: the token of "alice" must be 16 to 4096 characters without spaces/],
      [`alice=${A} ${A}`, /without spaces/],
      [`alice=${A}\nalice=${B}`, /f line 2: tenant "alice" is named twice/],
      [`alice=${A}\nbob=${A}`, /f line 2: "bob" has the same token as "alice"/],
      ['# nothing\n', /names no tenant/],
    ];
    for (const [text, message] of cases) {
      assert.throws(
        () => parseTokenFile(text, 'f'),
        (error: Error) => error.name === 'UsageError' && message.test(error.message) && !error.message.includes(A),
        text,
      );
    }
  });

  it('reads a private file; refuses one others may write, a link, or a missing one', () => {
    const file = join(dir, 'tokens');
    writeFileSync(file, `alice=${A}\n`, { mode: 0o600 });
    const logged: string[] = [];
    assert.equal(readTokenFile(file, (m) => logged.push(m)).get('alice'), A);
    assert.equal(logged.length, 0);
    chmodSync(file, 0o644);
    readTokenFile(file, (m) => logged.push(m));
    assert.match(logged[0]!, /readable by other users/);
    chmodSync(file, 0o664);
    assert.throws(() => readTokenFile(file, () => {}), /writable by group or others, who could add a tenant/);
    chmodSync(file, 0o600);
    const link = join(dir, 'link');
    symlinkSync(file, link);
    assert.throws(() => readTokenFile(link, () => {}), /Cannot read --auth-token-file/);
    assert.throws(() => readTokenFile(join(dir, 'missing'), () => {}), /Cannot read --auth-token-file .*missing/);
  });

  it('adds --auth-token as the tenant "default", and refuses a clash with it', () => {
    assert.equal(tenantTokens(null, null), null);
    assert.deepEqual([...tenantTokens(A, null)!], [[DEFAULT_TENANT, A]]);
    assert.deepEqual([...tenantTokens(A, new Map([['bob', B]]))!.keys()], ['default', 'bob']);
    assert.throws(() => tenantTokens(A, new Map([['default', B]])), /names a tenant "default", which is --auth-token's/);
    assert.throws(() => tenantTokens(A, new Map([['bob', A]])), /gives "bob" the token of --auth-token/);
  });

  it('maps a request to the tenant whose token it carries, exactly', () => {
    const tenantOf = tenantResolver(
      new Map([
        ['alice', A],
        ['bob', B],
      ]),
    );
    assert.equal(tenantOf(bearer(`Bearer ${A}`)), 'alice');
    assert.equal(tenantOf(bearer(`bearer ${B}`)), 'bob');
    for (const header of [undefined, '', 'Bearer', `Bearer ${A}x`, `Bearer ${A.slice(0, -1)}`, `Basic ${A}`, A, `Bearer ${A} ${B}`]) {
      assert.equal(tenantOf(bearer(header)), null, String(header));
    }
    assert.equal(tenantResolver(null)(bearer(undefined)), DEFAULT_TENANT, 'no token configured: one open tenant');
  });
});
