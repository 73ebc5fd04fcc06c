/**
 * BENCH_ONLY=view: what the live view (src/view/, docs/view.md) costs the agent: the round trip of a cell with 0, 1
 * and 10 browsers' event streams open on its session (each event's JSON is made once and written to every viewer).
 * The viewers are plain HTTP clients reading the Server-Sent Events stream as a browser does, so the figures are
 * the server's fan-out, not a browser's rendering. A cell is asked for its output while it runs only while someone
 * watches its session, so the rows with 0 views are also the cost without live output; the cell of 1,000 small prints
 * shows what it costs (a clock read per print in the session, a few messages a cell).
 */
import { request } from 'node:http';
import { createServer } from 'node:net';
import type { Section } from '../section.js';
import { QUICK, startServer, timed } from '../server.js';
import type { ResultTable } from '../table.js';

/** A free loopback port (bound, read, released). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Opens one viewer's event stream; resolves once the server has answered, with a counter of bytes read and a closer. */
function openViewer(port: number, token: string, session: string): Promise<{ bytes: () => number; close: () => void }> {
  return new Promise((resolve, reject) => {
    let read = 0;
    let answered = false;
    const req = request(
      { host: '127.0.0.1', port, path: `/view/api/${encodeURIComponent(session)}/events`, headers: { authorization: `Bearer ${token}` } },
      (res) => {
        answered = true;
        if (res.statusCode !== 200) return reject(new Error(`view stream: HTTP ${res.statusCode}`));
        res.on('data', (chunk: Buffer) => (read += chunk.length));
        resolve({ bytes: () => read, close: () => req.destroy() });
      },
    );
    // Once answered, the only error is the close below.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.end();
  });
}

export async function view(table: ResultTable): Promise<void> {
  const port = await freePort();
  const server = await startServer(['--warm-sessions', '1', '--view', `127.0.0.1:${port}`], 'none');
  try {
    const line = server.logs.find((l) => l.includes('/view?token='));
    const token = line?.match(/token=([^\s&]+)/)?.[1];
    if (!token) throw new Error('the server did not log its view URL');
    const { session_id } = await server.call('create_session');
    const n = QUICK ? 200 : 1000;
    const cells: [string, string][] = [
      ['"1+1"', '1+1'],
      ['printing 10 KB', "print('x' * 10_000)"],
      ['printing 10 KB in 1,000 prints', "for i in range(1000):\n    print('x' * 9)"],
    ];
    // Warm-up: the server's and the session's code paths, so that the rows differ by the viewers alone.
    for (let i = 0; i < 1500; i++) await server.call('execute_code', { session_id, code: '1+1' });
    for (let i = 0; i < 100; i++) await server.call('execute_code', { session_id, code: cells[2]![1] });
    for (const viewers of [0, 1, 10]) {
      const open = await Promise.all(Array.from({ length: viewers }, () => openViewer(port, token, session_id)));
      for (const [label, code] of cells) {
        const times: number[] = [];
        for (let i = 0; i < n; i++) times.push((await timed(() => server.call('execute_code', { session_id, code })))[0]);
        table.record(
          `execute_code ${label} round trip with ${viewers} view${viewers === 1 ? '' : 's'} open on the session (stdio, process)`,
          times,
          'ms',
          undefined,
          viewers === 0
            ? 'no viewer'
            : `${(open.reduce((sum, v) => sum + v.bytes(), 0) / viewers / 2 ** 20).toFixed(1)} MB read per viewer`,
          true,
        );
      }
      for (const viewer of open) viewer.close();
    }
  } finally {
    await server.close();
  }
}

export const section: Section = { name: 'view', inFullRun: false, run: ({ table }) => view(table) };
