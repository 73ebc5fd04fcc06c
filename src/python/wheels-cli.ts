/**
 * `npm run wheels:fetch -- --from <dir or URL>`: fills wheels/ with the verified wheels that the modern
 * runtime needs for the preload set, and (re)writes wheels/manifest.json from pyodide-lock.json.
 * Exit code 0 only when every wheel is present and verified.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readModernLock } from './distribution.js';
import { PACKAGE_WHEELS_DIR } from '../paths.js';
import { buildManifest, DEFAULT_PRELOAD, fetchWheels, type WheelManifest } from './wheels.js';

const USAGE = `Usage: npm run wheels:fetch -- --from <dir|URL> [--preload a,b,c] [--dest dir] [--write-manifest-only]
  --from       local directory or http(s) base URL holding the wheels named in pyodide-lock.json (required)
  --preload    packages to store, with their dependencies (default ${DEFAULT_PRELOAD.join(',')})
  --dest       target directory (default ${PACKAGE_WHEELS_DIR})
  --write-manifest-only   only regenerate <dest>/manifest.json`;

function fail(message: string): never {
  process.stderr.write(`wheels:fetch: ${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        from: { type: 'string' },
        preload: { type: 'string', default: DEFAULT_PRELOAD.join(',') },
        dest: { type: 'string', default: PACKAGE_WHEELS_DIR },
        'write-manifest-only': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    fail(`${(err as Error).message}\n${USAGE}`);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const preload = values.preload
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (preload.length === 0) fail('--preload is empty: name at least one package, e.g. --preload numpy');
  const manifestOnly = values['write-manifest-only'];
  // Checked before anything is written, so a usage error leaves --dest untouched.
  if (!manifestOnly && !values.from) {
    fail(
      '--from is required. There is deliberately no default download source: the server must work offline and\n' +
        'every byte that ends up in wheels/ comes from a mirror you chose and is checked against pyodide-lock.json.\n' +
        'Examples:\n' +
        '  npm run wheels:fetch -- --from /srv/pyodide-mirror/full\n' +
        `  npm run wheels:fetch -- --from https://pyodide-mirror.internal.example/v<version>/full/\n${USAGE}`,
    );
  }

  let manifest: WheelManifest;
  try {
    manifest = buildManifest(readModernLock(), preload);
  } catch (err) {
    fail(`${(err as Error).message} Check the names given to --preload.`);
  }
  // The manifest is always regenerated from the lock so that it can never drift from the runtime.
  await mkdir(values.dest, { recursive: true });
  const manifestPath = join(values.dest, 'manifest.json');
  await writeFile(`${manifestPath}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`);
  await rename(`${manifestPath}.tmp`, manifestPath);
  process.stderr.write(
    `wheels:fetch: wrote ${manifestPath} (${manifest.wheels.length} wheels for ${preload.join(', ')}, Pyodide ${manifest.pyodide_version})\n`,
  );
  if (manifestOnly) return;

  let summary;
  try {
    summary = await fetchWheels({
      from: values.from!,
      manifest,
      destDir: values.dest,
      log: (line) => process.stderr.write(`  ${line}\n`),
    });
  } catch (err) {
    fail((err as Error).message);
  }
  const ok = manifest.wheels.length - summary.failed.length;
  process.stderr.write(
    `wheels:fetch: ${ok}/${manifest.wheels.length} wheels present and verified in ${values.dest} ` +
      `(${summary.fetched} fetched, ${summary.skipped} already present)\n`,
  );
  if (summary.failed.length > 0) {
    for (const { file_name, reason } of summary.failed) process.stderr.write(`  FAILED ${file_name}: ${reason}\n`);
    fail(
      `${summary.failed.length} wheel(s) missing or unverified; nothing unverified was kept. Fix the mirror and run again ` +
        '(verified files are skipped).',
    );
  }
}

await main();
