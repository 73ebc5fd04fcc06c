/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension): the view of one cell as a `ui://` resource, and the tool
 * `_meta` that links execute_code, run_file and call_function to it. A host with MCP Apps renders the tool's result in
 * this HTML, in a sandboxed iframe, inline in the chat; a host without it ignores the `_meta` and the resource, and
 * shows the reply's text and image blocks, which are the same as without this module.
 *
 * Built on the SDK directly, not with @modelcontextprotocol/ext-apps/server: see docs/architecture.md "Why these
 * dependencies". The names and shapes are the spec's (ext-apps' spec.types.ts, SEP-1865).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import { PACKAGE_ROOT } from '../paths.js';

export const CELL_APP_URI = 'ui://pyodide-mcp/cell.html';
/** The spec's MIME type of an MCP App's HTML. */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';

/**
 * What a linked tool carries: the spec's `_meta.ui.resourceUri`, and the older flat key `ui/resourceUri` that hosts
 * built on the first drafts read (the spec asks hosts to accept both; ext-apps' registerAppTool sets both).
 */
export const CELL_APP_TOOL_META = { ui: { resourceUri: CELL_APP_URI }, 'ui/resourceUri': CELL_APP_URI } as const;

/**
 * The resource's `_meta.ui`: no network, no outside images, scripts, styles or frames (empty domain lists are the
 * spec's strictest policy; the host builds the frame's CSP from them), and a border around the cell.
 */
export const CELL_APP_UI_META = {
  csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
  prefersBorder: true,
};

let html: string | null = null;

/**
 * The app's HTML (view/cell-app.html) with a CSP of its own in a <meta>, so it holds even in a host that applies a
 * laxer one: its one inline script by hash (no other script can run in its context, whatever a cell printed), inline
 * styles (output HTML never enters its DOM; the sandboxed frames that show it inherit this policy, and a DataFrame's
 * HTML carries a <style>), images only as data: URLs, frames only as srcdoc documents, nothing fetched.
 */
export function cellAppHtml(): string {
  if (html !== null) return html;
  const source = readFileSync(join(PACKAGE_ROOT, 'view', 'cell-app.html'), 'utf8');
  const scripts = [...source.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  const hashes = scripts.map((s) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`).join(' ');
  const csp =
    `default-src 'none'; script-src ${hashes}; style-src 'unsafe-inline'; img-src data:; ` +
    `frame-src 'self' about:; base-uri 'none'; form-action 'none'`;
  html = source.replace(
    '<meta charset="utf-8" />',
    `<meta charset="utf-8" />\n    <meta http-equiv="Content-Security-Policy" content="${csp}" />`,
  );
  return html;
}

/** Registers the cell's `ui://` resource (listed, with its `_meta.ui` there and on the content read). */
export function registerCellApp(server: McpServer): void {
  server.registerResource(
    'cell-view',
    CELL_APP_URI,
    {
      title: 'Python cell',
      description:
        "Renders one cell's result as a notebook cell (MCP Apps hosts show it inline for execute_code, run_file, call_function).",
      mimeType: MCP_APP_MIME_TYPE,
      _meta: { ui: CELL_APP_UI_META },
    },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: MCP_APP_MIME_TYPE, text: cellAppHtml(), _meta: { ui: CELL_APP_UI_META } }] }),
  );
}
