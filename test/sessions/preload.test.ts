/**
 * Sessions ready before their preload: the SessionManager with real session processes and the legacy runtime
 * (Pyodide 0.17.1), preloading numpy and matplotlib in the background (workers/thread/preloader.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SessionManager } from '../../src/sessions/manager.js';
import { testManager } from '../helpers.js';

const PRELOAD = ['numpy', 'matplotlib'];

describe('background preload (legacy runtime)', () => {
  let sessions: SessionManager;
  const logs: string[] = [];
  const run = async (id: string, code: string) => {
    const { outcome } = await sessions.execute(id, { code }, 120_000);
    assert.equal(outcome.error, null, JSON.stringify(outcome.error));
    return outcome;
  };

  before(() => {
    // No warm pool: each session here is booted cold, so its preload cannot have run before it is handed out.
    sessions = testManager(['--runtime', 'legacy', '--preload', PRELOAD.join(','), '--warm-sessions', '0'], (m) => logs.push(m));
  });
  after(() => sessions.closeAll());

  it('hands out a session before its preload is imported, reports versions from metadata, then imports the set', async () => {
    const created = await sessions.create();
    assert.deepEqual(created.runtime.packages, { numpy: '1.17.5', matplotlib: '3.3.3' });
    // Code runs at once, whether or not the preload has begun (its steps queue behind or between requests).
    const first = await run(created.id, 'print(6*7)');
    assert.equal(first.stdout, '42\n');
    const report = await sessions.preloaded(created.id);
    assert.deepEqual(report, { imported: { numpy: '1.17.5', matplotlib: '3.3.3' }, failed: [] });
    // Imported into sys.modules, not the user's namespace; the pyplot warm-up ran after the lockdown too.
    const after = await run(created.id, "import sys\n('numpy' in sys.modules, 'matplotlib.pyplot' in sys.modules, 'np' in dir())");
    assert.equal(after.result, '(True, True, False)');
    assert.equal(after.loaded_packages.length, 0);
    await sessions.close(created.id);
  });

  it('a cell that imports a preloaded package while the preload runs gets it, and the preload still completes', async () => {
    const created = await sessions.create();
    const pending = sessions.preloaded(created.id);
    const outcome = await run(
      created.id,
      'import numpy as np, matplotlib.pyplot as plt\nplt.plot(np.arange(3))\n(int(np.arange(5).sum()), plt.get_backend())',
    );
    assert.equal(outcome.result, "(10, 'module://pyodide_mcp_backend')");
    assert.equal(outcome.display.length, 1);
    assert.deepEqual(await pending, { imported: { numpy: '1.17.5', matplotlib: '3.3.3' }, failed: [] });
    // Still one interpreter, with the user's names intact after the background steps.
    assert.equal((await run(created.id, 'np.__name__, plt.__name__')).result, "('numpy', 'matplotlib.pyplot')");
    await sessions.close(created.id);
  });

  it('a session that is closed while its preload waits or runs ends cleanly', async () => {
    const created = await sessions.create();
    const pending = sessions.preloaded(created.id);
    await sessions.close(created.id);
    await assert.rejects(pending);
    assert.ok(!logs.some((line) => line.includes('preload failed')), logs.join('\n'));
  });
});
