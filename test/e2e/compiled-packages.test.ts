/**
 * Real compiled packages on the modern runtime, over the real server: our own C extensions and shared library
 * (test/compiled-wheels.ts), named in a test lock like numpy and libopenblas, loaded by Emscripten 5.0.3's dynamic
 * linker inside the locked-down session worker.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeCompiledMirror } from '../compiled-wheels.js';
import { startServer, type Harness } from '../helpers.js';

const root = mkdtempSync(join(tmpdir(), 'compiled-packages-'));
const mirror = join(root, 'wheels');
const lockFile = join(root, 'test-lock.json');
writeCompiledMirror(mirror, lockFile);
const LOCK_FLAGS = ['--runtime', 'modern', '--lock-file', lockFile, '--wheels-dir', mirror];

describe('compiled packages, process isolation', () => {
  let server: Harness;
  before(async () => {
    server = await startServer([...LOCK_FLAGS, '--isolation', 'process']);
  });
  after(() => server.close());

  it('imports an extension that calls into a shared_library package, and calls it', async () => {
    const { session_id } = await server.ok('create_session');
    const reply = await server.ok('execute_code', {
      session_id,
      code: 'import mcpnative\n(mcpnative.dot([1, 2, 3], [4, 5, 6]), mcpnative.library_version(), mcpnative.__version__)',
    });
    assert.equal(reply.error ?? null, null, JSON.stringify(reply.error));
    assert.equal(reply.result, "(32.0, 10203, '1.0.0')");
    await server.ok('close_session', { session_id });
  });
});
