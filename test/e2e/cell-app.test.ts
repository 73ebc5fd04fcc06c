/**
 * MCP Apps (docs/tools.md "MCP Apps"): the SDK's real Client over stdio lists the tools' `_meta` link and reads the
 * `ui://` cell resource; then headless Chromium and Firefox ESR (Debian's, driven by puppeteer-core: test/browsers.ts)
 * each load that HTML in a sandboxed frame of a page acting as the host, speak the spec's postMessage protocol to it
 * (ui/initialize, then the real tool-input and tool-result of cells run on the server), and the test reads what the
 * cell shows. A browser that is not installed makes its part skip with a clear message.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { Browser, Frame, Page } from 'puppeteer-core';
import { BROWSERS, newPage, waitUntil, type BrowserTarget } from '../browsers.js';
import { startServer, type Harness } from '../helpers.js';
import { assertOutputRanNoScript, assertScriptsByHash, mountApp } from '../mcp-app-host.js';
import { CELL_APP_URI, MCP_APP_MIME_TYPE, SESSION_APP_URI } from '../../src/view/mcp-apps.js';

// The functions given to page.evaluate run in the browser (the build has no DOM lib).
declare const document: any;
declare const window: any;

const OUT = mkdtempSync(join(tmpdir(), 'pyodide-mcp-cell-app-'));
const LINKED = ['execute_code', 'run_file', 'call_function'];

describe('MCP Apps: the cell view', () => {
  let h: Harness;
  let html = '';

  before(async () => {
    h = await startServer([], { PYODIDE_MCP_PRELOAD: 'matplotlib' });
  });
  after(async () => {
    await h?.close();
  });

  it('links execute_code, run_file and call_function to the ui:// resource (export_notebook to the session view), and only them', async () => {
    const { tools } = await h.client.listTools();
    for (const tool of tools) {
      const meta = tool._meta as Record<string, any> | undefined;
      if (LINKED.includes(tool.name)) {
        assert.equal(meta?.ui?.resourceUri, CELL_APP_URI, tool.name);
        assert.equal(meta?.['ui/resourceUri'], CELL_APP_URI, `${tool.name}: the older flat key too`);
      } else if (tool.name === 'export_notebook') {
        assert.equal(meta?.ui?.resourceUri, SESSION_APP_URI, tool.name); // test/e2e/session-app.test.ts
      } else {
        assert.equal(meta?.ui, undefined, tool.name);
      }
    }
  });

  it('declares the extension in its capabilities, with the MIME type of its apps', () => {
    const extensions = h.client.getServerCapabilities()?.extensions as Record<string, { mimeTypes?: string[] }> | undefined;
    assert.deepEqual(extensions?.['io.modelcontextprotocol/ui']?.mimeTypes, ['text/html;profile=mcp-app']);
  });

  it('keeps the link in the compact profile', async () => {
    const compact = await startServer(['--profile', 'compact']);
    try {
      const tool = (await compact.client.listTools()).tools.find((t) => t.name === 'execute_code');
      assert.equal((tool?._meta as any)?.ui?.resourceUri, CELL_APP_URI);
    } finally {
      await compact.close();
    }
  });

  it('lists and reads the resource: HTML, the MCP Apps MIME type, a strict CSP in its metadata and in the page', async () => {
    const { resources } = await h.client.listResources();
    const listed = resources.find((r) => r.uri === CELL_APP_URI);
    assert.ok(listed, 'the ui:// resource is listed');
    assert.equal(listed.mimeType, MCP_APP_MIME_TYPE);
    assert.equal(MCP_APP_MIME_TYPE, 'text/html;profile=mcp-app');
    const strict = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };
    assert.deepEqual((listed._meta as any)?.ui?.csp, strict);
    const read = await h.client.readResource({ uri: CELL_APP_URI });
    assert.equal(read.contents.length, 1);
    const content = read.contents[0] as { uri: string; mimeType?: string; text?: string; _meta?: any };
    assert.equal(content.mimeType, MCP_APP_MIME_TYPE);
    assert.deepEqual(content._meta?.ui?.csp, strict);
    html = content.text ?? '';
    assert.match(html, /^<!doctype html>/i);
    assert.match(html, /<\/html>\s*$/);
    assertScriptsByHash(html);
    assert.doesNotMatch(html, /<script src=|<link /, 'the shared script and style are inlined');
    assert.doesNotMatch(html, /(src|href)="https?:/, 'nothing from the network');
  });

  it('links the tools register_tool makes to the cell view (their call runs a cell)', async () => {
    const id = (await h.ok('create_session', {})).session_id as string;
    await h.ok('execute_code', { session_id: id, code: 'def double(x: int):\n    return 2 * x' });
    await h.ok('register_tool', { session_id: id, function: 'double' });
    const tool = (await h.client.listTools()).tools.find((t) => t.name === 'double');
    assert.equal((tool?._meta as any)?.ui?.resourceUri, CELL_APP_URI);
    assert.equal((tool?._meta as any)?.['ui/resourceUri'], CELL_APP_URI);
    await h.ok('close_session', { session_id: id });
    assert.ok(!(await h.client.listTools()).tools.some((t) => t.name === 'double'), 'gone with its session');
  });

  it('hosts without MCP Apps get the reply blocks as before: the readable text first', async () => {
    const r = await h.call('execute_code', { code: 'print("hi")' });
    assert.equal(r.content.length, 1);
    assert.equal(r.content[0].type, 'text');
    assert.match((r.content[0] as { text: string }).text, /hi/);
    assert.equal(r._meta, undefined, 'no app data in the reply');
  });

  /** The session the browsers' cells run in: one for all, so the second browser's cells do not import pandas again. */
  let session = '';

  /** As a host renders the app, in one browser. */
  const asAHost = (target: BrowserTarget) => () => {
    let browser: Browser;
    let page: Page;

    before(async () => {
      browser = await target.launch();
      page = await newPage(browser, { width: 900, height: 900 });
      session ||= (await h.ok('create_session', {})).session_id as string;
    });
    after(async () => {
      await browser?.close();
    });

    /** Mounts the app as a host does (test/mcp-app-host.ts) and waits until it shows the cell. */
    async function mount(args: Record<string, unknown>, result: CallToolResult, hostContext: object = {}): Promise<Frame> {
      const frame = await mountApp(page, html, args, result, { hostContext });
      await waitUntil(frame, () => document.querySelector('.head') !== null, { timeout: 10_000 });
      return frame;
    }

    it('renders a cell: code, stdout, stderr, a figure, an HTML table, the result', async () => {
      const code =
        'import sys\nimport matplotlib.pyplot as plt\nfrom IPython.display import HTML, display\n' +
        'print("hello <b>out</b>")\nprint("warn", file=sys.stderr)\n' +
        'plt.plot([1, 3, 2]); plt.show()\n' +
        'display(HTML("<table id=t><tr><th>a</th></tr><tr><td>1</td></tr></table>"))\n' +
        'import pandas as pd\ndisplay(pd.DataFrame({"col_a": [1, 2], "col_b": ["x", "y"]}))\n' +
        '6 * 7';
      const args = { code, session_id: session };
      const result = (await h.call('execute_code', args)) as CallToolResult;
      assert.ok(!result.isError, JSON.stringify(result.content).slice(0, 300));
      const frame = await mount(args, result);
      const shown = await frame.evaluate(() => ({
        code: document.querySelector('pre.code')?.textContent,
        stdout: document.querySelector('pre.stdout')?.textContent,
        stderr: document.querySelector('pre.stderr')?.textContent,
        out: document.querySelector('pre.out')?.textContent,
        bold: document.querySelectorAll('b').length,
        head: document.querySelector('.head')?.textContent,
      }));
      assert.equal(shown.code, code);
      assert.equal(shown.stdout, 'hello <b>out</b>\n', 'stdout as text, never as markup');
      assert.equal(shown.bold, 0);
      assert.equal(shown.stderr, 'warn\n');
      assert.equal(shown.out, '42');
      assert.match(shown.head ?? '', /In \[\d+\]/);
      await waitUntil(frame, () => {
        const img = document.querySelector('img.figure');
        return img !== null && img.complete && img.naturalWidth > 100;
      });
      const table = await frame.$eval('iframe.html-frame', (f: any) => f.getAttribute('sandbox'));
      assert.equal(table, '', 'HTML in a frame with no allow-scripts and no allow-same-origin');
      const nested = (await (await frame.$('iframe.html-frame'))!.contentFrame())!;
      await nested.waitForSelector('#t td');
      assert.equal(await nested.$eval('#t td', (td: any) => td.textContent), '1');
      // The DataFrame: its own HTML table, in a second inert frame.
      const frames = await frame.$$('iframe.html-frame');
      assert.equal(frames.length, 2);
      const df = (await frames[1].contentFrame())!;
      await df.waitForSelector('table.dataframe');
      const headers = await df.$$eval('table.dataframe th', (ths: any[]) => ths.map((th) => th.textContent));
      assert.ok(headers.includes('col_a') && headers.includes('col_b'), headers.join(','));
      assert.equal(await df.$$eval('table.dataframe tbody tr', (rows: any[]) => rows.length), 2);
      await new Promise((resolve) => setTimeout(resolve, 500)); // let the frames paint
      await page.screenshot({ path: join(OUT, `cell-${target.name}.png`), fullPage: true });
    });

    it('renders the result of a tool register_tool made, named by the tool and its arguments', async () => {
      const name = `rect_area_${target.name.toLowerCase()}`; // the browsers share the session: a tool each
      await h.ok('execute_code', {
        session_id: session,
        code: 'def area(w: float, h: float = 1.0):\n    "Area of a rectangle."\n    print("computing", w, h)\n    return w * h',
      });
      await h.ok('register_tool', { session_id: session, function: 'area', name });
      const tool = (await h.client.listTools()).tools.find((t) => t.name === name)!;
      assert.equal((tool._meta as any)?.ui?.resourceUri, CELL_APP_URI);
      const args = { w: 3, h: 2 };
      const result = (await h.call(name, args)) as CallToolResult;
      assert.ok(!result.isError, JSON.stringify(result.content).slice(0, 300));
      // A host passes the tool that was called in hostContext.toolInfo (the spec's HostContext).
      const frame = await mount(args, result, { toolInfo: { tool } });
      const shown = await frame.evaluate(() => ({
        code: document.querySelector('pre.code')?.textContent,
        stdout: document.querySelector('pre.stdout')?.textContent,
        out: document.querySelector('pre.out')?.textContent,
      }));
      assert.deepEqual(shown, { code: `${name}(w=3, h=2)`, stdout: 'computing 3 2\n', out: '6' });
      await h.ok('unregister_tool', { name });
    });

    it('shows an error with its traceback', async () => {
      const args = { code: 'def f():\n    return 1 / 0\nf()', session_id: session };
      const frame = await mount(args, (await h.call('execute_code', args)) as CallToolResult);
      const error = await frame.$eval('pre.error', (n: any) => n.textContent);
      assert.match(error, /Traceback[\s\S]*in f[\s\S]*ZeroDivisionError: division by zero/);
    });

    it("runs no script from the output in the app's context, nor in the HTML output's frame", async () => {
      const evil =
        '<b id="evil">evil</b><script>window.ran = 1; parent.pwned = 1; parent.postMessage("pwned", "*");</script>' +
        '<img src="x" onerror="parent.pwned = 2">';
      const code = `from IPython.display import HTML, display\nprint(${JSON.stringify(evil)})\ndisplay(HTML(${JSON.stringify(evil)}))`;
      const args = { code, session_id: session };
      const frame = await mount(args, (await h.call('execute_code', args)) as CallToolResult);
      const nested = (await (await frame.$('iframe.html-frame'))!.contentFrame())!;
      await nested.waitForSelector('#evil');
      await assertOutputRanNoScript(page, frame, nested);
      const messages = await page.evaluate(() => window.messages.map((m: any) => (typeof m === 'string' ? m : m.method)));
      assert.ok(messages.includes('ui/notifications/size-changed'), 'the app tells the host its size');
    });
  };

  for (const target of BROWSERS) describe(`in ${target.name}, as a host renders it`, { skip: target.skip }, asAHost(target));
});
