/**
 * docs/configuration.md's flag table, rendered from the flag table (FLAGS in src/server/flags.ts) so that the page,
 * `--help` and the createSandbox() options cannot drift apart. `npm run docs:config` rewrites the part between the
 * markers; test/server/config.test.ts fails when the page is not what this renders. Not part of the package.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { optionName } from '../src/api/options.js';
import { PACKAGE_ROOT } from '../src/paths.js';
import { envName, FLAGS, type FlagName } from '../src/server/flags.js';

/** The page the table lives in. */
export const CONFIG_DOC = join(PACKAGE_ROOT, 'docs', 'configuration.md');

export const START_MARKER = '<!-- flags:start: generated from FLAGS in src/server/flags.ts by `npm run docs:config`; do not edit -->';
export const END_MARKER = '<!-- flags:end -->';

/** A table cell: pipes would end the cell, newlines the row. */
const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The Markdown table: one row per flag, in the table's order (the order `--help` lists them in). */
export function renderFlagTable(): string {
  const rows = ['| flag | env twin | default | createSandbox() option | meaning |', '| --- | --- | --- | --- | --- |'];
  for (const flag of Object.keys(FLAGS) as FlagName[]) {
    const row = FLAGS[flag];
    // A row without a raw default says in its help what applies instead (a computed path, "none", stdio).
    const fallback = 'multiple' in row ? 'none' : 'see meaning';
    const def = row.default === undefined ? fallback : `\`${row.default}\``;
    const option = 'cliOnly' in row ? 'command only' : `\`${optionName(flag)}\``;
    rows.push(`| \`--${flag}\` | \`${envName(flag)}\` | ${cell(def)} | ${option} | ${cell(row.help)} |`);
  }
  return rows.join('\n');
}

/** The page with the part between the markers replaced by the current table. Throws when a marker is missing. */
export function withCurrentTable(page: string): string {
  const start = page.indexOf(START_MARKER);
  const end = page.indexOf(END_MARKER);
  if (start < 0 || end < start) throw new Error(`${CONFIG_DOC} has lost its markers: ${START_MARKER} ... ${END_MARKER}`);
  return page.slice(0, start + START_MARKER.length) + '\n\n' + renderFlagTable() + '\n\n' + page.slice(end);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const page = readFileSync(CONFIG_DOC, 'utf8');
  const next = withCurrentTable(page);
  if (next === page) process.stderr.write(`${CONFIG_DOC} is current\n`);
  else {
    writeFileSync(CONFIG_DOC, next);
    process.stderr.write(`${CONFIG_DOC}: flag table rewritten\n`);
  }
}
