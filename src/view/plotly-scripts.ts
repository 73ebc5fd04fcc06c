/**
 * The scripts a Plotly chart file runs (workers/python/rich_output.py writes it), as CSP hash sources: the MCP Apps
 * allow these by hash and no other script, so a chart a session wrote is drawn live inside the app while any other
 * script in it, or in anything else a session wrote, stays blocked (src/view/mcp-apps.ts).
 *
 * - plotly_chart.js: the one script that draws the figure from the file's JSON data block; read from the package.
 * - plotly.js: the bundle the session's plotly package inlines. Only bundles named here are allowed, each checked
 *   against the real package by a test (test/e2e/notebook-output.test.ts). A chart made with another plotly (a
 *   newer one a session installed) is not drawn in the app, which says so and names the file; the browser view
 *   (--view) draws it.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../paths.js';

/**
 * SHA-256 (base64) of `plotly.offline.get_plotlyjs()` of the plotly packages the runtimes ship: the legacy runtime's
 * plotly 4.14.3 (plotly.js v1.58.4, 3,478,132 characters). The modern runtime ships no plotly offline.
 */
export const KNOWN_PLOTLY_JS_SHA256: Readonly<Record<string, string>> = {
  'plotly 4.14.3 (legacy runtime)': 'rwZnfP8qy8SDqYsQq8UYTz1LSicLLDpqHkmMVP9qM18=',
};

/** workers/python/plotly_chart.js, exactly as the session writes it into a chart. */
export function plotlyChartScript(): string {
  return readFileSync(join(PACKAGE_ROOT, 'workers', 'python', 'plotly_chart.js'), 'utf8');
}

/** A script's CSP hash source. */
export function scriptHashSource(script: string): string {
  return `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
}

/** The hash sources a chart needs: the loader's and every known plotly.js bundle's. */
export function plotlyHashSources(): string[] {
  return [scriptHashSource(plotlyChartScript()), ...Object.values(KNOWN_PLOTLY_JS_SHA256).map((hash) => `'sha256-${hash}'`)];
}
