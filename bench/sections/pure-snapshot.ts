/**
 * BENCH_ONLY=pure-snapshot: a ready modern session with a pure-Python preload set, with and without the memory
 * snapshot that holds it imported.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_WHEELS_DIR } from '../../src/paths.js';
import { modernVersion, readModernLock, wheelClosure } from '../../src/python/distribution.js';
import { userWheelsDir } from '../../src/python/user-cache.js';
import { checkWheelDir } from '../../src/python/wheel-check.js';
import { INVENTED_PRELOAD, inventedPackages, writeMirror } from '../../test/fake-wheels.js';
import type { Section } from '../section.js';
import { QUICK, type Server, startServer, timed } from '../server.js';
import type { ResultTable } from '../table.js';

/**
 * A ready session on the modern runtime with a pure-Python preload set: create_session until the set is imported, with
 * the memory snapshot that holds it imported (files unpacked again from the same wheels) and without (--snapshot-dir
 * none). Pool off, so every create boots. On the invented set (wheels built here, test/fake-wheels.ts) always; on
 * sympy (pure Python, with mpmath) only when its verified wheels are in the package's wheels/ or the per-user cache.
 */
export async function pureSnapshot(table: ResultTable): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'bench-pure-'));
  try {
    const mirror = join(root, 'wheels');
    const lockFile = join(root, 'lock.json');
    writeMirror(mirror, lockFile, inventedPackages());
    const code = `import ${INVENTED_PRELOAD.join(', ')}`;
    await readyWithAndWithout(
      table,
      `invented pure-Python set: ${INVENTED_PRELOAD.length} packages + 1 dependency, 123 modules`,
      INVENTED_PRELOAD.join(','),
      code,
      ['--wheels-dir', mirror, '--lock-file', lockFile],
      root,
    );

    const lock = readModernLock();
    const needed = wheelClosure(lock, ['sympy']).map((pkg) => pkg.file_name);
    const dir = [
      { path: PACKAGE_WHEELS_DIR, private: false },
      { path: userWheelsDir(process.env, modernVersion()), private: true },
    ].find((candidate) => {
      const verified = checkWheelDir(candidate, lock).verified;
      return needed.every((file) => verified.has(file));
    });
    if (dir) {
      await readyWithAndWithout(table, 'sympy', 'sympy', 'import sympy', ['--wheels-dir', dir.path], root);
    } else {
      for (const how of ['without snapshot', 'from the snapshot'])
        table.push({
          metric: `ready modern session, create_session → preload imported (sympy, ${how})`,
          p50: null,
          p95: null,
          n: 0,
          unit: 'ms',
          note: 'not measured (no verified sympy/mpmath wheels: run `npx pyodide-mcp fetch-wheels --preload sympy`)',
        });
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function readyWithAndWithout(
  table: ResultTable,
  label: string,
  preload: string,
  code: string,
  flags: string[],
  root: string,
): Promise<void> {
  const n = QUICK ? 2 : 4;
  const serve = (snapshotDir: string) =>
    startServer(['--warm-sessions', '0', '--runtime', 'modern', '--snapshot-dir', snapshotDir, ...flags], preload);
  /** create_session, then a cell importing the set (it waits for the session's preload). */
  const ready = async (server: Server): Promise<number> => {
    const [ms, created] = await timed(async () => {
      const created = await server.call('create_session');
      const reply = await server.call('execute_code', { session_id: created.session_id, code });
      if (reply.error) throw new Error(JSON.stringify(reply.error));
      return created;
    });
    await server.call('close_session', { session_id: created.session_id });
    return ms;
  };
  const series = async (server: Server): Promise<number[]> => {
    const times: number[] = [];
    for (let i = 0; i < n; i++) times.push(await ready(server));
    await server.close();
    return times;
  };
  table.record(
    `ready modern session, create_session → preload imported (${label}, without snapshot)`,
    await series(await serve('none')),
    'ms',
  );
  // The first session of a server makes the snapshot; the sessions measured (a new server) boot from it.
  const snapshotDir = join(root, `snapshots-${preload.replace(/\W/g, '_')}`);
  const maker = await serve(snapshotDir);
  await ready(maker);
  await maker.close();
  if (!(existsSync(snapshotDir) && readdirSync(snapshotDir).some((f) => f.endsWith('.snapshot')))) throw new Error('no snapshot was made');
  table.record(
    `ready modern session, create_session → preload imported (${label}, from the snapshot)`,
    await series(await serve(snapshotDir)),
    'ms',
    undefined,
    'snapshot holds the set imported; its files unpacked again from the same verified wheels',
  );
}

export const section: Section = { name: 'pure-snapshot', inFullRun: true, run: ({ table }) => pureSnapshot(table) };
