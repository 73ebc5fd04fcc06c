/**
 * BENCH_ONLY=warm-create: create_session with a warm pool hit (modern without preload, legacy with the scientific
 * stack; both isolations), and the first scientific call in such a session.
 */
import type { Section } from '../section.js';
import { type Isolation, QUICK, STACK, startServer, timed, waitForWarm } from '../server.js';
import type { ResultTable } from '../table.js';

/** 1. create_session with a warm pool hit, and 3. the first scientific call in such a session. */
export async function warmCreate(table: ResultTable, preload: string, label: string, isolation: Isolation): Promise<number> {
  const server = await startServer(['--warm-sessions', '1', '--isolation', isolation], preload);
  const creates: number[] = [];
  const firstUse: number[] = [];
  const n = QUICK ? 3 : preload === 'none' ? 10 : 5;
  for (let i = 0; i < n; i++) {
    // A fresh warm session: booted and (with a stack) done importing it in the background.
    await waitForWarm(server, 1, preload !== 'none');
    const [ms, created] = await timed(() => server.call('create_session'));
    creates.push(ms);
    if (preload !== 'none') {
      const [useMs, reply] = await timed(() =>
        server.call('execute_code', {
          session_id: created.session_id,
          code: 'import numpy as np, pandas as pd, matplotlib.pyplot as plt\ndf = pd.DataFrame({"x": np.arange(10)})\nplt.plot(df.x)\nfloat(df.x.mean())',
        }),
      );
      if (reply.result !== '4.5') throw new Error(`unexpected result ${reply.result}`);
      firstUse.push(useMs);
    }
    await server.call('close_session', { session_id: created.session_id });
  }
  await server.close();
  const row = table.record(`create_session, warm pool hit (${label}, ${isolation})`, creates, 'ms', '< 50 ms');
  if (firstUse.length > 0)
    table.record(
      `first execute_code using numpy+pandas+matplotlib (${label}, ${isolation}, fresh warm session)`,
      firstUse,
      'ms',
      'no import cost',
      'includes the first plot',
    );
  return row.p50!;
}

export const section: Section = {
  name: 'warm-create',
  inFullRun: true,
  run: async (context) => {
    const { table } = context;
    // The default isolation (process) and thread isolation side by side: what the security boundary costs.
    context.warmCreateP50.modern = await warmCreate(table, 'none', 'modern, no preload', 'process');
    await warmCreate(table, 'none', 'modern, no preload', 'thread');
    context.warmCreateP50.legacy = await warmCreate(table, STACK, 'legacy, scientific stack', 'process');
    await warmCreate(table, STACK, 'legacy, scientific stack', 'thread');
  },
};
