/**
 * The check that reset_session gives builtins back as a fresh session has them, shared by the runtimes' suites
 * (namespace.test.ts: modern; notebook.test.ts: legacy).
 */
import assert from 'node:assert/strict';
import type { Harness } from '../helpers.js';

/** A cell hooks `builtins.print` and plants a name; after reset_session, print is plain and the name is gone. */
export async function assertResetRestoresBuiltins(h: Harness, sessionId?: string): Promise<void> {
  const t = (
    await h.ok('execute_code', {
      session_id: sessionId,
      code: 'import builtins\n_print = print\nbuiltins.print = lambda *a, **k: _print("hooked", *a, **k)\nbuiltins.planted = 1\nprint("x")',
    })
  ).session_id;
  await h.ok('reset_session', { session_id: t });
  const after = await h.ok('execute_code', {
    session_id: t,
    code: 'import builtins\nprint("x")\nhasattr(builtins, "planted"), callable(display)',
  });
  assert.equal(after.stdout, 'x\n');
  assert.equal(after.result, '(False, True)');
  await h.ok('close_session', { session_id: t });
}
