/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension): the view of one cell and the view of a whole session as
 * `ui://` resources, and the tool `_meta` that links tools to them. A host with MCP Apps renders the linked tool's
 * result in the resource's HTML, in a sandboxed iframe, inline in the chat; a host without it ignores the `_meta` and
 * the resources, and shows the reply's text and image blocks, which are the same as without this module.
 *
 * - `ui://pyodide-mcp/cell.html` (view/cell-app.html): execute_code, run_file, call_function and every tool made by
 *   register_tool (src/server/dynamic-tools.ts).
 * - `ui://pyodide-mcp/session.html` (view/session-app.html): export_notebook; the app reads the .ipynb it wrote.
 *
 * Built on the SDK directly, not with @modelcontextprotocol/ext-apps/server: see docs/architecture.md "Why these
 * dependencies". The names and shapes are the spec's (ext-apps' specification/2026-01-26/apps.mdx, SEP-1865).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import { PACKAGE_ROOT } from '../paths.js';
import { plotlyHashSources, scriptHashSource } from './plotly-scripts.js';

export const CELL_APP_URI = 'ui://pyodide-mcp/cell.html';
export const SESSION_APP_URI = 'ui://pyodide-mcp/session.html';
/** The spec's MIME type of an MCP App's HTML. */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';

/**
 * The server's half of the extension's negotiation (SEP-2133 `capabilities.extensions`, the key is the spec's
 * extension id): hosts that check it see that the tools link `ui://` apps of this MIME type. Clients that declare
 * nothing get the same tools and replies; an app only adds a view of what the text and structured content say.
 */
export const MCP_APPS_CAPABILITY = { 'io.modelcontextprotocol/ui': { mimeTypes: [MCP_APP_MIME_TYPE] } };

/**
 * What a linked tool carries: the spec's `_meta.ui.resourceUri`, and the older flat key `ui/resourceUri` that hosts
 * built on the first drafts read (the spec asks hosts to accept both; ext-apps' registerAppTool sets both).
 */
function toolMeta(uri: string) {
  return { ui: { resourceUri: uri }, 'ui/resourceUri': uri } as const;
}

/** The `_meta` of the tools whose reply is one cell's (execute_code, run_file, call_function, registered tools). */
export const CELL_APP_TOOL_META = toolMeta(CELL_APP_URI);
/** The `_meta` of export_notebook: its result is shown as the whole notebook it wrote. */
export const SESSION_APP_TOOL_META = toolMeta(SESSION_APP_URI);

/**
 * A resource's `_meta.ui`: no network, no outside images, scripts, styles or frames (empty domain lists are the
 * spec's strictest policy; the host builds the frame's CSP from them), and a border around the view.
 */
export const APP_UI_META = {
  csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
  prefersBorder: true,
};

/** The apps: their resource, the page in the package's `view/` folder, and how a host lists them. */
const APPS = [
  {
    name: 'cell-view',
    uri: CELL_APP_URI,
    file: 'cell-app.html',
    title: 'Python cell',
    description:
      "Renders one cell's result as a notebook cell (MCP Apps hosts show it inline for execute_code, run_file, call_function and registered tools).",
  },
  {
    name: 'session-view',
    uri: SESSION_APP_URI,
    file: 'session-app.html',
    title: 'Python session notebook',
    description:
      "Renders the notebook export_notebook wrote as the session's cells in order, with their outputs (MCP Apps hosts show it inline for export_notebook).",
  },
] as const;

/**
 * What both apps share, inlined into each page where it names it: the look, and the code (the postMessage JSON-RPC
 * with the host, the safe ways to show output). The pages name them as files so they open from view/ as they are.
 */
const SHARED_STYLE = '<link rel="stylesheet" href="app-common.css" />';
const SHARED_SCRIPT = '<script src="app-common.js"></script>';

const built = new Map<string, string>();

/**
 * An app's HTML (a page of view/) as the resource serves it: the shared style and script (view/app-common.css, .js)
 * inlined where the page names them, and a CSP of its own in a <meta>, so it holds even in a host that applies a laxer one: its inline
 * scripts by hash (no other script can run in its context, whatever a cell printed), inline styles (output HTML never
 * enters its DOM; the sandboxed frames that show it inherit this policy, and a DataFrame's HTML carries a <style>),
 * images only as data: URLs, frames only as srcdoc documents, nothing fetched.
 */
export function appHtml(file: (typeof APPS)[number]['file']): string {
  const cached = built.get(file);
  if (cached !== undefined) return cached;
  const read = (name: string) => readFileSync(join(PACKAGE_ROOT, 'view', name), 'utf8');
  // A function as the replacement: `$` in the script is not a replacement pattern.
  const source = read(file)
    .replace(SHARED_STYLE, () => `<style>\n${read('app-common.css')}</style>`)
    .replace(SHARED_SCRIPT, () => `<script>${read('app-common.js')}</script>`);
  const scripts = [...source.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  // And the two scripts of a Plotly chart (src/view/plotly-scripts.ts), which run only in the chart's own frame
  // (sandbox="allow-scripts", an opaque origin; the frame inherits this policy): never in the app's document, which
  // has no element that holds them.
  // 'unsafe-eval' because plotly.js 1.58 compiles code it generates (ndarray's and cwise's kernels) while it loads; it
  // lets a running script turn strings into code, and only the scripts above can run: the app's own, which never do.
  const hashes = [...scripts.map(scriptHashSource), ...plotlyHashSources(), "'unsafe-eval'"].join(' ');
  const csp =
    `default-src 'none'; script-src ${hashes}; style-src 'unsafe-inline'; img-src data:; ` +
    `frame-src 'self' about:; base-uri 'none'; form-action 'none'`;
  const html = source.replace(
    '<meta charset="utf-8" />',
    `<meta charset="utf-8" />\n    <meta http-equiv="Content-Security-Policy" content="${csp}" />`,
  );
  built.set(file, html);
  return html;
}

/** Registers the apps' `ui://` resources (listed, with their `_meta.ui` there and on the content read). */
export function registerMcpApps(server: McpServer): void {
  for (const app of APPS) {
    server.registerResource(
      app.name,
      app.uri,
      { title: app.title, description: app.description, mimeType: MCP_APP_MIME_TYPE, _meta: { ui: APP_UI_META } },
      async (uri) => ({ contents: [{ uri: uri.href, mimeType: MCP_APP_MIME_TYPE, text: appHtml(app.file), _meta: { ui: APP_UI_META } }] }),
    );
  }
}
