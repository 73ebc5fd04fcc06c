/**
 * BENCH_ONLY=compiled-load: loading and importing a real compiled package in a modern session (the fixtures of
 * test/compiled-wheels.ts: an extension and the shared_library package it links against), its time and the memory
 * it adds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeCompiledMirror } from '../../test/compiled-wheels.js';
import { inventedPackages } from '../../test/fake-wheels.js';
import { rssMb } from '../process-memory.js';
import type { Section } from '../section.js';
import { type Isolation, QUICK, startServer, timed } from '../server.js';
import { log, type ResultTable } from '../table.js';

/** The cell measured: loads mcpnative and libmcpmath (read from the wheel directory, unpack, dlopen), imports and calls. */
const CODE = 'import mcpnative\nmcpnative.dot([1, 2, 3], [4, 5, 6])';
/** For comparison, before it in the same session: a small pure-Python package (one wheel, one module). */
const PURE_CODE = 'import inventedbeta\ninventedbeta.double(21)';

/**
 * In each of n fresh sessions (pool off, preload none): the first cell that imports a pure-Python package, then the
 * first that imports the compiled package, each from the call to its reply, with the RSS of the server's process
 * tree before and after the compiled one (under --isolation process the session's own process is in that tree;
 * under thread, the server itself). Then the compiled cell again, the package loaded: what is left of the first
 * one's time is the loading.
 */
export async function compiledLoad(table: ResultTable, isolation: Isolation): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'bench-compiled-'));
  try {
    const mirror = join(root, 'wheels');
    const lockFile = join(root, 'lock.json');
    writeCompiledMirror(
      mirror,
      lockFile,
      inventedPackages(1).filter((pkg) => pkg.name === 'inventedbeta'),
    );
    const server = await startServer(
      ['--runtime', 'modern', '--lock-file', lockFile, '--wheels-dir', mirror, '--warm-sessions', '0', '--isolation', isolation],
      'none',
    );
    const pure: number[] = [];
    const first: number[] = [];
    const again: number[] = [];
    const added: number[] = [];
    try {
      for (let i = 0; i < (QUICK ? 2 : 6); i++) {
        const { session_id } = await server.call('create_session');
        // The session has booted and run nothing yet: a trivial cell first, so the figure is the package's alone.
        await server.call('execute_code', { session_id, code: '1' });
        const [pureMs, pureReply] = await timed(() => server.call('execute_code', { session_id, code: PURE_CODE }));
        if (pureReply.result !== '42') throw new Error(`unexpected reply: ${JSON.stringify(pureReply)}`);
        pure.push(pureMs);
        const before = rssMb(server.pid);
        const [ms, reply] = await timed(() => server.call('execute_code', { session_id, code: CODE }));
        if (reply.result !== '32.0') throw new Error(`unexpected reply: ${JSON.stringify(reply)}`);
        added.push(rssMb(server.pid) - before);
        first.push(ms);
        again.push((await timed(() => server.call('execute_code', { session_id, code: CODE })))[0]);
        await server.call('close_session', { session_id });
      }
    } finally {
      await server.close();
    }
    const what = `mcpnative + libmcpmath, ${isolation}`;
    table.record(
      `pure-Python package: first import in a session, load + import + call (inventedbeta, ${isolation})`,
      pure,
      'ms',
      undefined,
      "the session's first package load, one-time costs included",
    );
    table.record(
      `compiled package: first import in a session, load + import + call (${what})`,
      first,
      'ms',
      undefined,
      'after the pure-Python one in the same session',
    );
    table.record(`compiled package: the same cell again, loaded (${what})`, again, 'ms');
    table.record(
      `compiled package: RSS added by loading + importing it (${what})`,
      added,
      'MB',
      undefined,
      'RSS of the process tree after the first import cell minus before it',
    );
    log(`compiled-load ${isolation}: done`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export const section: Section = {
  name: 'compiled-load',
  inFullRun: true,
  run: async ({ table }) => {
    for (const isolation of ['process', 'thread'] as const) await compiledLoad(table, isolation);
  },
};
