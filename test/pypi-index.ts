/** A PyPI-style JSON index on 127.0.0.1 for tests of --allow-network installs, and the wheels it serves. */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { strToU8, zipSync } from 'fflate';

/** A pure-Python wheel holding `<pkg>/__init__.py` with `init`, and its metadata. */
export function wheel(pkg: string, version: string, init: string): Uint8Array {
  const dist = `${pkg}-${version}.dist-info`;
  return zipSync({
    [`${pkg}/__init__.py`]: strToU8(init),
    [`${dist}/METADATA`]: strToU8(`Metadata-Version: 2.1\nName: ${pkg}\nVersion: ${version}\n`),
    [`${dist}/WHEEL`]: strToU8('Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n'),
    [`${dist}/RECORD`]: strToU8(''),
  });
}

export const sha = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

export interface PypiIndex {
  /** The --index-url to give the server. */
  url: string;
  port: number;
  /** Every path asked for, in order. */
  requests: string[];
  close(): void;
}

/** Serves `/pypi/<name>/json` from `releases` and `/files/<file>` from `files`. */
export async function serveIndex(releases: Record<string, object>, files: Record<string, Uint8Array>): Promise<PypiIndex> {
  const requests: string[] = [];
  const index = createServer((req, res) => {
    requests.push(req.url ?? '');
    const json = /^\/pypi\/([^/]+)\/json$/.exec(req.url ?? '');
    if (json && releases[json[1]!])
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(releases[json[1]!]));
    const file = /^\/files\/(.+)$/.exec(req.url ?? '');
    if (file && files[file[1]!]) return void res.writeHead(200).end(files[file[1]!]);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => index.listen(0, '127.0.0.1', resolve));
  const port = (index.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/pypi`, port, requests, close: () => index.close() };
}
