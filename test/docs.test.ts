/**
 * The docs against the code they describe: every tool has a section in docs/tools.md, every error code a row of its
 * table, and every relative link in the Markdown pages leads to a file that exists. (docs/configuration.md's flag
 * table is checked in test/server/config.test.ts.) No Pyodide.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { ERROR_CODES } from '../src/errors.js';
import { PACKAGE_ROOT } from '../src/paths.js';

const read = (path: string) => readFileSync(join(PACKAGE_ROOT, path), 'utf8');

/** Every tool the full profile exposes. */
const TOOLS = [
  'execute_code',
  'create_session',
  'list_sessions',
  'close_session',
  'server_info',
  'list_packages',
  'install_packages',
  'list_files',
  'read_file',
  'write_file',
  'delete_file',
  'run_file',
  'upload_file',
  'download_file',
  'list_variables',
  'inspect_variable',
  'call_function',
  'remove_variables',
  'reset_session',
  'register_tool',
  'unregister_tool',
  'export_notebook',
];

describe('docs', () => {
  it('docs/tools.md has a section for every tool and the README names each in its table', () => {
    const tools = read('docs/tools.md');
    const readme = read('README.md');
    for (const tool of TOOLS) {
      assert.match(tools, new RegExp(`^###.*\`${tool}\``, 'm'), `docs/tools.md: ${tool}`);
      assert.match(readme, new RegExp(`^\\|.*\`${tool}\``, 'm'), `README.md: ${tool}`);
    }
  });

  it('docs/tools.md has a row for every error code, and no row for a code that does not exist', () => {
    const rows = [...read('docs/tools.md').matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]);
    assert.deepEqual([...rows].sort(), [...ERROR_CODES].sort());
  });

  it('every relative link in the Markdown pages leads to a file that exists', () => {
    const pages = [
      'README.md',
      'CONTRIBUTING.md',
      'CHANGELOG.md',
      'SECURITY.md',
      ...readdirSync(join(PACKAGE_ROOT, 'docs')).map((f) => `docs/${f}`),
    ];
    for (const page of pages.filter((p) => p.endsWith('.md'))) {
      for (const [, target] of read(page).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (!target || /^[a-z]+:/.test(target) || target.startsWith('#')) continue;
        const file = target.split('#')[0] ?? '';
        assert.ok(existsSync(join(PACKAGE_ROOT, dirname(page), file)), `${page} links to ${target}, which does not exist`);
      }
    }
  });
});
