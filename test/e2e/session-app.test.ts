/**
 * MCP Apps, the view of a whole session (docs/view.md "Inside a chat host"): the SDK's real Client over stdio lists
 * and reads `ui://pyodide-mcp/session.html` and export_notebook's link to it; then headless Chromium and Firefox ESR
 * (Debian's, driven by puppeteer-core: test/browsers.ts) each load that HTML in a sandboxed frame of a page acting as
 * the host, which applies the CSP a host builds from the resource's metadata, speaks the spec's postMessage protocol
 * to it and forwards the app's own requests (resources/read, tools/call) to the real server through the test's client.
 * The test reads the notebook the app shows. A browser that is not installed makes its part skip with a clear message.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { Browser, Frame, Page } from 'puppeteer-core';
import { BROWSERS, newPage, waitUntil, type BrowserTarget } from '../browsers.js';
import { startServer, textOf, type Harness } from '../helpers.js';
import { assertOutputRanNoScript, assertScriptsByHash, hostApps, mountApp, type AppHost } from '../mcp-app-host.js';
import { MCP_APP_MIME_TYPE, SESSION_APP_URI } from '../../src/view/mcp-apps.js';

// The functions given to page.evaluate run in the browser (the build has no DOM lib).
declare const document: any;
declare const window: any;

const OUT = mkdtempSync(join(tmpdir(), 'pyodide-mcp-session-app-'));
/** read_file's pages are this small here, so that a notebook read in pages takes several. */
const PAGE_BYTES = 4096;

/** Python output that would run script if it ever became markup in the app, or in a frame that may run scripts. */
const EVIL =
  '<b id="evil">evil</b><script>window.ran = 1; parent.pwned = 1; parent.postMessage("pwned", "*");</script>' +
  '<img src="x" onerror="parent.pwned = 2">';

/**
 * The HTML with the CSP a host builds from the resource's `_meta.ui.csp` (the spec's "CSP Construction from
 * Metadata"), in a <meta> as a sandbox proxy would load it: with no domains declared, `frame-src 'none'` among others.
 */
function withHostCsp(page: string, csp: { connectDomains?: string[]; resourceDomains?: string[]; frameDomains?: string[] }): string {
  const resources = (csp.resourceDomains ?? []).join(' ');
  const policy =
    `default-src 'none'; script-src 'self' 'unsafe-inline' ${resources}; style-src 'self' 'unsafe-inline' ${resources}; ` +
    `connect-src 'self' ${(csp.connectDomains ?? []).join(' ')}; img-src 'self' data: ${resources}; ` +
    `frame-src ${(csp.frameDomains ?? []).join(' ') || "'none'"}; object-src 'none'; base-uri 'self'`;
  return page.replace('<head>', `<head>\n    <meta http-equiv="Content-Security-Policy" content="${policy}" />`);
}

describe('MCP Apps: the session view', () => {
  let h: Harness;
  let html = '';
  /** The page as a host that follows the spec loads it: with the CSP the host builds from `_meta.ui.csp`. */
  let hosted = '';

  before(async () => {
    h = await startServer(['--max-read-bytes', String(PAGE_BYTES)], { PYODIDE_MCP_PRELOAD: 'matplotlib' });
    const content = (await h.client.readResource({ uri: SESSION_APP_URI })).contents[0] as { text?: string; _meta?: any };
    html = content.text ?? '';
    hosted = withHostCsp(html, content._meta?.ui?.csp ?? {});
  });
  after(async () => {
    await h?.close();
  });

  it('lists and reads the resource: HTML, the MCP Apps MIME type, a strict CSP in its metadata and in the page', async () => {
    const { resources } = await h.client.listResources();
    const listed = resources.find((r) => r.uri === SESSION_APP_URI);
    assert.ok(listed, 'the ui:// resource is listed');
    assert.equal(listed.mimeType, 'text/html;profile=mcp-app');
    const strict = { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] };
    assert.deepEqual((listed._meta as any)?.ui?.csp, strict);
    const read = await h.client.readResource({ uri: SESSION_APP_URI });
    assert.equal(read.contents.length, 1);
    const content = read.contents[0] as { uri: string; mimeType?: string; text?: string; _meta?: any };
    assert.equal(content.mimeType, MCP_APP_MIME_TYPE);
    assert.deepEqual(content._meta?.ui?.csp, strict);
    assert.equal(content.text, html);
    assert.match(html, /^<!doctype html>/i);
    assert.match(html, /<title>Python session<\/title>/);
    assert.match(html, /<\/html>\s*$/);
    assertScriptsByHash(html);
    assert.doesNotMatch(html, /(src|href)="https?:/, 'nothing from the network');
    assert.doesNotMatch(html, /<script src=|<link /, 'the shared script and style are inlined');
  });

  it('links export_notebook to it; the reply of a host without MCP Apps is as before', async () => {
    const tool = (await h.client.listTools()).tools.find((t) => t.name === 'export_notebook');
    assert.equal((tool?._meta as any)?.ui?.resourceUri, SESSION_APP_URI);
    assert.equal((tool?._meta as any)?.['ui/resourceUri'], SESSION_APP_URI, 'the older flat key too');
    const id = (await h.ok('create_session', {})).session_id as string;
    await h.ok('execute_code', { session_id: id, code: 'x = 1' });
    const r = await h.call('export_notebook', { session_id: id });
    assert.ok(!r.isError, textOf(r));
    assert.equal(r.content.length, 1);
    assert.match(textOf(r), /^Wrote notebook\.ipynb \(\d+ bytes, 1 cells\)/);
    assert.equal(r._meta, undefined, 'no app data in the reply');
    await h.ok('close_session', { session_id: id });
  });

  /** As a host renders the app, in one browser (a session of its own, so that its cells are numbered from 1). */
  const asAHost = (target: BrowserTarget) => () => {
    let browser: Browser;
    let page: Page;
    let session = '';
    let host: AppHost;

    before(async () => {
      browser = await target.launch();
      page = await newPage(browser, { width: 900, height: 900 });
      // The host's side of the app's requests: the real server, through this test's SDK client.
      host = await hostApps(page, h.client);
      session = (await h.ok('create_session', {})).session_id as string;
    });
    after(async () => {
      await browser?.close();
    });

    const run = async (code: string) => (await h.call('execute_code', { session_id: session, code })) as CallToolResult;

    /**
     * Mounts the app as a host does (test/mcp-app-host.ts), forwarding its requests to the server, and waits until it
     * shows the notebook's cells, the export's error, or why it could not show the notebook.
     */
    async function mount(args: Record<string, unknown>, result: CallToolResult): Promise<Frame> {
      const frame = await mountApp(page, hosted, args, result, { forwards: true, alone: true });
      await waitUntil(
        frame,
        () =>
          document.querySelector('.cell, #notebook > pre.error') !== null ||
          /could not be shown/.test(document.querySelector('#notebook')?.textContent ?? ''),
        { timeout: 60_000, interval: 50 },
      ).catch(async (error) => {
        const shown = await frame.evaluate(() => document.querySelector('#notebook').textContent.trim().slice(0, 300));
        const messages = await page.evaluate(() => JSON.stringify(window.messages.map((m: any) => m.method ?? m.id)));
        throw new Error(`${error.message}; the app shows ${JSON.stringify(shown)}; it sent ${messages}; forwarded ${host.forwarded}`);
      });
      return frame;
    }

    /** What the app shows of each code cell: its prompt, its code, and the classes of its outputs in order. */
    const cellsOf = (frame: Frame) =>
      frame.$$eval('.cell', (cells: any[]) =>
        cells
          .filter((cell) => cell.querySelector('pre.code'))
          .map((cell) => ({
            prompt: cell.querySelector('.prompt').textContent,
            code: cell.querySelector('pre.code').textContent,
            outputs: [...cell.children].slice(2).map((n: any) => `${n.tagName.toLowerCase()}.${n.className}`),
          })),
      );

    const CELLS = [
      'print("hello <b>out</b>")',
      'import sys\nprint("warn", file=sys.stderr)\n6 * 7',
      'import matplotlib.pyplot as plt\nplt.plot([1, 3, 2]); plt.show()',
      'import pandas as pd\nfrom IPython.display import display\ndisplay(pd.DataFrame({"col_a": [1, 2], "col_b": ["x", "y"]}))',
      'def f():\n    return 1 / 0\nf()',
    ];

    it('renders the session as a notebook: every cell in order, stdout, stderr, Out[n], a figure, a table, an error with its traceback', async () => {
      for (const code of CELLS) await run(code);
      const args = { session_id: session };
      const result = (await h.call('export_notebook', args)) as CallToolResult;
      assert.ok(!result.isError, textOf(result));
      host.forwarded.length = 0;
      const frame = await mount(args, result);
      assert.deepEqual(host.forwarded, ['resources/read'], 'one read of the notebook file, through the host');
      const cells = await cellsOf(frame);
      assert.deepEqual(
        cells.map((c) => c.code),
        CELLS,
      );
      assert.deepEqual(
        cells.map((c) => c.prompt),
        CELLS.map((_, i) => `In [${i + 1}]:`),
      );
      assert.deepEqual(
        cells.map((c) => c.outputs),
        [['pre.stdout'], ['pre.stderr', 'pre.out'], ['img.figure'], ['iframe.html-frame'], ['pre.error']],
      );
      const shown = await frame.evaluate(() => ({
        stdout: document.querySelector('pre.stdout').textContent,
        bold: document.querySelectorAll('b').length,
        out: [document.querySelector('pre.out').textContent, document.querySelector('pre.out').dataset.label],
        error: document.querySelector('pre.error').textContent,
        bar: document.querySelector('#bar').textContent,
      }));
      assert.equal(shown.stdout, 'hello <b>out</b>\n', 'stdout as text, never as markup');
      assert.equal(shown.bold, 0);
      assert.deepEqual(shown.out, ['42', 'Out[2]:']);
      assert.match(shown.error, /Traceback[\s\S]*in f[\s\S]*ZeroDivisionError: division by zero/);
      assert.match(shown.bar, new RegExp(`Session ${session}.*5 cells.*Refresh`));
      await waitUntil(frame, () => {
        const img = document.querySelector('img.figure');
        return img !== null && img.complete && img.naturalWidth > 100;
      });
      // The table's srcdoc frame renders under the host's `frame-src 'none'` (while a frame of a URL would not).
      assert.match(await frame.evaluate(() => document.head.innerHTML), /frame-src 'none'/);
      const table = (await (await frame.$('iframe.html-frame'))!.contentFrame())!;
      await table.waitForSelector('table.dataframe');
      const violated = await frame.evaluate(async () => {
        const seen: string[] = [];
        document.addEventListener('securitypolicyviolation', (event: any) => seen.push(event.effectiveDirective));
        const probe = document.createElement('iframe');
        probe.src = 'data:text/html,<p>shown</p>';
        document.body.append(probe);
        await new Promise((resolve) => setTimeout(resolve, 300));
        probe.remove();
        return seen;
      });
      // Refused by both policies, the host's and the app's own.
      assert.deepEqual(violated, ['frame-src', 'frame-src'], 'a frame of a URL is refused');
      const headers = await table.$$eval('table.dataframe th', (ths: any[]) => ths.map((th) => th.textContent));
      assert.ok(headers.includes('col_a') && headers.includes('col_b'), headers.join(','));
      await new Promise((resolve) => setTimeout(resolve, 500)); // let the frames paint
      await page.screenshot({ path: join(OUT, `session-${target.name}.png`), fullPage: true });
    });

    it('Refresh exports again to the same file and shows the cells run since', async () => {
      const args = { session_id: session, path: 'views/nb.ipynb' };
      const frame = await mount(args, (await h.call('export_notebook', args)) as CallToolResult);
      const before = (await cellsOf(frame)).length;
      await run('print("after the export")');
      host.forwarded.length = 0;
      await frame.evaluate(() => document.querySelector('#bar button').click());
      await waitUntil(frame, (n: number) => document.querySelectorAll('.cell').length > n, { timeout: 60_000 }, before);
      assert.deepEqual(host.forwarded, ['tools/call export_notebook', 'resources/read']);
      const cells = await cellsOf(frame);
      assert.equal(cells.length, before + 1);
      assert.equal(cells.at(-1)!.code, 'print("after the export")');
      const files = (await h.ok('list_files', { session_id: session, path: 'views' })) as { entries: { path: string }[] };
      assert.deepEqual(
        files.entries.map((f) => f.path),
        ['views/nb.ipynb'],
        'the same file, written again',
      );
    });

    it("reads a notebook in read_file's pages when the host does not forward resources/read", async () => {
      const args = { session_id: session, path: 'paged.ipynb' };
      const result = (await h.call('export_notebook', args)) as CallToolResult;
      const size = (result.structuredContent as { file: { size: number } }).file.size;
      assert.ok(size > 3 * PAGE_BYTES, `${size} bytes take several pages`);
      host.forwarded.length = 0;
      host.refused = ['resources/read'];
      try {
        const frame = await mount(args, result);
        assert.equal(
          host.forwarded.length,
          Math.ceil(size / PAGE_BYTES),
          await frame.evaluate(() => document.querySelector('#notebook').textContent.slice(0, 500)),
        );
        assert.ok(
          host.forwarded.every((m) => m === 'tools/call read_file'),
          host.forwarded.join(','),
        );
        const cells = await cellsOf(frame);
        assert.equal(cells.length, CELLS.length + 1);
        assert.deepEqual(
          cells.slice(0, CELLS.length).map((c) => c.code),
          CELLS,
        );
      } finally {
        host.refused = [];
      }
    });

    it("runs no script from the output in the app's context, nor in its output frames", async () => {
      const svg =
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" onload="parent.pwned = 3">' +
        '<script>parent.pwned = 4</script><rect width="40" height="40" fill="red"/></svg>';
      await run(
        `from IPython.display import HTML, display\nprint(${JSON.stringify(EVIL)})\ndisplay(HTML(${JSON.stringify(EVIL)}))\n` +
          `class Picture:\n    def _repr_svg_(self):\n        return ${JSON.stringify(svg)}\ndisplay(Picture())`,
      );
      const args = { session_id: session, path: 'evil.ipynb' };
      const frame = await mount(args, (await h.call('export_notebook', args)) as CallToolResult);
      const last = (await cellsOf(frame)).at(-1)!;
      assert.deepEqual(last.outputs, ['pre.stdout', 'iframe.html-frame', 'img.figure'], 'SVG only as an image');
      const frames = await frame.$$('iframe.html-frame');
      const nested = (await frames.at(-1)!.contentFrame())!;
      await nested.waitForSelector('#evil');
      assert.equal(await frames.at(-1)!.evaluate((f: any) => f.getAttribute('sandbox')), '', 'no allow-scripts, no allow-same-origin');
      await waitUntil(frame, () => [...document.querySelectorAll('img.figure')].every((img: any) => img.complete));
      await assertOutputRanNoScript(page, frame, nested);
    });

    it('shows the error of an export that failed', async () => {
      const args = { session_id: session, path: 'evil.ipynb' }; // exists, and overwrite is not given
      const result = (await h.call('export_notebook', args)) as CallToolResult;
      assert.ok(result.isError);
      const frame = await mount(args, result);
      assert.equal(await frame.$eval('#notebook > pre.error', (n: any) => n.textContent), textOf(result));
      assert.equal(await frame.$('.cell'), null);
    });
  };

  for (const target of BROWSERS) describe(`in ${target.name}, as a host renders it`, { skip: target.skip }, asAHost(target));
});
