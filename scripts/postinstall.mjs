#!/usr/bin/env node
/**
 * npm `postinstall`: downloads the modern runtime's wheels into the per-user cache (src/python/wheels-cli.ts,
 * `postinstall`). It never fails the install: offline it prints one line and exits 0 within a few seconds, and
 * PYODIDE_MCP_SKIP_DOWNLOAD=1 turns it off.
 *
 * Plain JavaScript outside dist/ because npm runs `postinstall` before `prepare` (the build): in a fresh git clone
 * dist/ does not exist yet, so this only imports the compiled code when it is there (the published package always
 * carries it) and otherwise says how to fetch later.
 */
import { existsSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const entry = new URL('../dist/src/python/wheels-cli.js', import.meta.url);
const packageWheels = fileURLToPath(new URL('../wheels/', import.meta.url));
try {
  if (!existsSync(fileURLToPath(entry))) {
    process.stderr.write(
      'pyodide-mcp: not built yet (a git clone builds after install); run `npm run wheels:fetch` for the modern runtime\n',
    );
  } else {
    const { postinstall } = await import(entry.href);
    await postinstall(process.env, packageWheels);
  }
} catch (error) {
  process.stderr.write(`pyodide-mcp: skipped fetching the modern runtime's wheels (${error?.message ?? error})\n`);
}
process.exit(0);
