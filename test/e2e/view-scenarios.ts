/**
 * The browser view's tests (docs/view.md), shared by the files that run them: view.test.ts (Chromium, tenants, stdio
 * --view), view-firefox.test.ts (the same scenarios in Firefox) and view-plotly.test.ts (a live Plotly chart in
 * each browser). Real browsers: Debian's headless Chromium and Firefox ESR driven by puppeteer-core (the system
 * executables, no browser download; test/browsers.ts), over the real server, while the SDK's real Client runs cells.
 * A browser that is not installed makes its tests skip with a clear message (CI installs both: .ci/run).
 * Screenshots go under the test's tmp output, never git. Split in three files so each stays well inside the test
 * timeout on a loaded 2-core machine (one file took over 300 s there).
 */
import { Ajv } from 'ajv';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/client';
import type { Browser, Page } from 'puppeteer-core';
import { newPage, SharedBrowsers, waitUntil, type BrowserTarget } from '../browsers.js';
import { connectHttp, startHttp, type RunningHttp } from '../http-helpers.js';
import { NBFORMAT_V4_5_SCHEMA } from './nbformat-schema.js';

// The functions given to page.evaluate run in the browser; the build has Node's types only (no DOM lib), so the two
// globals they use are declared loosely here rather than adding the DOM lib to the whole program.
declare const document: any;
declare const window: any;

export const TOKEN = 'view-test-token-0123456789abcdef';
export const OUT = mkdtempSync(join(tmpdir(), 'pyodide-mcp-view-'));

// One instance of each browser for the whole file (Firefox takes seconds to start), closed at its end.
export const browsers = new SharedBrowsers();
after(() => browsers.closeAll());

/** A raw GET: status and body (no cookie, no redirects followed). */
export function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A raw POST with no body: its status. */
export function post(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end();
  });
}

export function structured(result: CallToolResult): Record<string, unknown> {
  assert.ok(!result.isError, JSON.stringify(result.content));
  return result.structuredContent as Record<string, unknown>;
}

/** Runs a cell through the agent's client; `failing`: the cell is expected to raise. */
export async function run(
  client: Client,
  session_id: string,
  code: string,
  failing = false,
  timeout_seconds?: number,
): Promise<Record<string, unknown>> {
  const result = (await client.callTool(
    { name: 'execute_code', arguments: { session_id, code, timeout_seconds } },
    { timeout: 300_000 },
  )) as CallToolResult;
  const reply = structured(result);
  if (!failing) assert.equal(reply.error, null, JSON.stringify(reply.error));
  return reply;
}

/** The text of every cell's outputs on the page, in order. */
export const outputsText = (page: Page) => page.$$eval('.cell .outputs', (nodes) => nodes.map((n) => n.textContent ?? ''));

/** The main scenarios, in one browser: a server of its own, so each browser sees the same notebook from cell 1. */
export const viewOverHttp = (target: BrowserTarget) => () => {
  let server: RunningHttp;
  let client: Client;
  let browser: Browser;
  let page: Page;
  let origin: string;
  let session: string;

  before(async () => {
    // Process isolation (not the tests' thread default): the memory panel shows the session process's own figure.
    server = await startHttp(['--isolation', 'process'], {
      PYODIDE_MCP_AUTH_TOKEN: TOKEN,
      PYODIDE_MCP_MAX_TOTAL_MEMORY_MB: '65536',
      PYODIDE_MCP_PRELOAD: 'matplotlib',
    });
    origin = server.url.origin;
    client = await connectHttp(server.url, TOKEN);
    session = structured((await client.callTool({ name: 'create_session', arguments: {} })) as CallToolResult).session_id as string;
    browser = await browsers.get(target);
    page = await newPage(browser);
  });

  after(async () => {
    await page?.close();
    await client?.close();
    await server?.stop();
  });

  it('refuses a request without a token (401) and one with a wrong Host (403)', async () => {
    assert.equal((await get(`${origin}/view`)).status, 401);
    assert.equal((await get(`${origin}/view/api/sessions`)).status, 401);
    assert.equal((await get(`${origin}/view?token=wrong-token-wrong-token`)).status, 401);
    const wrongHost = await get(`${origin}/view/api/sessions`, { authorization: `Bearer ${TOKEN}`, host: 'evil.example' });
    assert.equal(wrongHost.status, 403);
    const good = await get(`${origin}/view/api/sessions`, { authorization: `Bearer ${TOKEN}` });
    assert.equal(good.status, 200, good.body);
    const interrupt = await post(`${origin}/view/api/${session}/interrupt`, { authorization: `Bearer ${TOKEN}` });
    assert.equal(interrupt, 405, 'read-only without --view-control');
    const exchange = await get(`${origin}/view?token=${TOKEN}`);
    assert.equal(exchange.status, 303);
    assert.equal(exchange.headers.location, '/view');
    assert.match(String(exchange.headers['set-cookie']), /HttpOnly; SameSite=Strict; Path=\/view/);
    assert.doesNotMatch(String(exchange.headers['set-cookie']), new RegExp(TOKEN));
  });

  it('shows cells as they run, without reload: output, the running time, an error with its traceback, a figure', async () => {
    await page.goto(`${origin}/view/${session}?token=${TOKEN}`);
    assert.equal(new URL(page.url()).search, '', 'the token left the URL');
    await waitUntil(page, () => document.querySelector('.badge')?.textContent === 'idle');
    const csp = (await get(`${origin}/view/${session}`, { authorization: `Bearer ${TOKEN}` })).headers['content-security-policy'];
    assert.match(String(csp), /script-src 'self'/);

    await run(client, session, 'print("hello view")\n6 * 7');
    const replied = Date.now();
    await waitUntil(page, () => [...document.querySelectorAll('.cell .outputs')].some((n) => n.textContent?.includes('hello view')), {
      interval: 10,
    });
    const latency = Date.now() - replied;
    assert.ok(latency < 250, `the cell showed ${latency} ms after the reply`);
    assert.match((await outputsText(page)).at(-1)!, /hello view[\s\S]*Out\[1\]:42/);

    // A cell that prints for over a second: shown as running, with its elapsed time against its limit, then its lines.
    // (A busy wait: time.sleep returns at once on the legacy runtime, where these sessions run offline.)
    const slow = run(
      client,
      session,
      'import time\nfor i in range(3):\n    print("tick", i, flush=True)\n    end = time.perf_counter() + 0.4\n    while time.perf_counter() < end:\n        pass',
    );
    // Polled on a timer: requestAnimationFrame (puppeteer's default) can stall in a headless page and miss the window.
    await waitUntil(page, () => /running for [\d.]+ s of 30 s/.test(document.querySelector('.cell.running .meta')?.textContent ?? ''));
    await slow;
    await waitUntil(page, () => !document.querySelector('.cell.running'));
    assert.match((await outputsText(page)).at(-1)!, /tick 0\ntick 1\ntick 2/);

    await run(client, session, 'def f():\n    return 1 / 0\nf()', true);
    await waitUntil(page, () => document.querySelectorAll('.cell.failed').length === 1);
    const error = await page.$eval('.cell.failed .error', (n) => n.textContent ?? '');
    assert.match(error, /ZeroDivisionError: division by zero/);
    assert.match(error, /Traceback[\s\S]*in f/);

    await run(client, session, 'import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.show()');
    await waitUntil(page, () => {
      const img = document.querySelector('img.figure');
      return img !== null && img.complete && img.naturalWidth > 100;
    });
    await waitUntil(page, () => /memory \d+ MB/.test(document.querySelector('.memory')?.textContent ?? ''));
    await page.screenshot({ path: join(OUT, `notebook-${target.name}.png`), fullPage: true });
  });

  it("streams a running cell's output: a line printed before a second of work shows before the call returns, and a redrawn line is redrawn", async () => {
    await page.goto(`${origin}/view/${session}`);
    await waitUntil(page, () => document.querySelector('.badge')?.textContent === 'idle');
    // A progress line printed without its end before a sleep is sent when the sleep starts; the carriage return
    // redraws it in the page as in the reply. The markup is printed, never parsed.
    const code =
      'import time\nprint("streamed first <img src=x id=streamed-img>")\nprint("progress 1/2", end="")\ntime.sleep(1.5)\n' +
      'print("\\rprogress 2/2", end="", flush=True)\ntime.sleep(2.5)\nprint()\nprint("streamed second")';
    let returned = false;
    const slow = run(client, session, code).then((reply) => ((returned = true), reply));
    const liveText = () => document.querySelector('.cell.running .stream.live')?.textContent ?? '';
    await waitUntil(page, () => (document.querySelector('.cell.running .stream.live')?.textContent ?? '').includes('progress 1/2'));
    assert.match(await page.evaluate(liveText), /^streamed first <img src=x id=streamed-img>\nprogress 1\/2$/);
    assert.equal(returned, false, 'the first lines showed while the cell still ran');
    // A viewer that opens the page mid-cell gets what was streamed so far.
    const late = await newPage(browser);
    await late.goto(`${origin}/view/${session}`);
    await waitUntil(late, () => document.querySelector('.cell.running .stream.live')?.textContent?.includes('streamed first'));
    assert.equal(returned, false, 'the late viewer saw the first line while the cell still ran');
    for (const viewer of [page, late]) {
      await waitUntil(viewer, () => (document.querySelector('.cell.running .stream.live')?.textContent ?? '').includes('progress 2/2'));
      assert.match(await viewer.evaluate(liveText), /^streamed first <img src=x id=streamed-img>\nprogress 2\/2$/, 'the line was redrawn');
    }
    const reply = await slow;
    assert.equal(reply.stdout, 'streamed first <img src=x id=streamed-img>\nprogress 2/2\nstreamed second\n');
    for (const viewer of [page, late]) {
      await waitUntil(viewer, () => !document.querySelector('.cell.running'));
      assert.match((await outputsText(viewer)).at(-1)!, /streamed first <img src=x id=streamed-img>\nprogress 2\/2\nstreamed second/);
      assert.equal(await viewer.$$eval('.stream.live', (nodes) => nodes.length), 0, 'the final output replaced the streamed one');
      assert.equal(await viewer.$('#streamed-img'), null, 'streamed text is never HTML');
    }
    await late.close();
  });

  it('a cell that floods its output (50 MB in small prints) streams no more than its limit; the page stays live', async () => {
    // A raw viewer, reading the event stream as a browser does, counts what the flood sent it.
    let live = 0;
    let liveText = 0;
    const viewer = request(
      `${origin}/view/api/${session}/events`,
      { headers: { authorization: `Bearer ${TOKEN}` }, agent: false },
      (res) => {
        let pending = '';
        res.on('data', (chunk: Buffer) => {
          pending += chunk.toString();
          const events = pending.split('\n\n');
          pending = events.pop()!;
          for (const event of events) {
            const data = /^data: (.*)$/m.exec(event)?.[1];
            const parsed = data ? (JSON.parse(data) as { kind: string; text?: string }) : null;
            if (parsed?.kind !== 'cell_output') continue;
            live++;
            liveText += parsed.text!.length;
          }
        });
      },
    );
    viewer.on('error', () => {});
    viewer.end();
    const flood = await run(client, session, 'line = "y" * 99 + "\\n"\nfor _ in range(500_000):\n    print(line, end="")');
    assert.equal((flood.stdout as string).length, 20_000, 'the reply holds --max-output-chars');
    await waitUntil(page, () => !document.querySelector('.cell.running'));
    assert.ok(live > 0, 'the flood streamed');
    assert.ok(liveText <= 20_000, `streamed ${liveText} characters, more than the cell's limit`);
    viewer.destroy();
    // The page still follows the session at once.
    await run(client, session, 'print("after the flood")');
    await waitUntil(page, () => [...document.querySelectorAll('.cell .outputs')].at(-1)?.textContent?.includes('after the flood'));
  });

  it('keeps session HTML and scripts away from the page, the cookie and the API', async () => {
    const evil =
      '<b id="evil">evil</b><script>window.top.pwned = 1; parent.document.title = "pwned";</script>' +
      '<img src="x" onerror="window.top.pwned = 2; parent.document.title = document.cookie">';
    await run(client, session, `from IPython.display import HTML\ndisplay(HTML(${JSON.stringify(evil)}))`);
    await waitUntil(page, () => document.querySelectorAll('iframe.html-frame').length === 1);
    const frameAttrs = await page.$eval('iframe.html-frame', (f) => ({ sandbox: f.getAttribute('sandbox'), src: f.getAttribute('src') }));
    assert.equal(frameAttrs.sandbox, '', 'no allow-scripts, no allow-same-origin');
    // The frame rendered the HTML (as text and markup, in its own document)...
    const frame = await (await page.$('iframe.html-frame'))!.contentFrame();
    await frame.waitForSelector('#evil');
    await new Promise((resolve) => setTimeout(resolve, 300));
    // ...and neither its script nor its onerror ran in the page.
    assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
    assert.match(await page.title(), /^Session /);
    assert.equal(await page.$('#evil'), null, 'nothing of it is in the page DOM');

    // A session HTML file with scripts (how a Plotly chart is shown): its scripts run, but in an opaque origin.
    const probe =
      '<script>let cookie; try { cookie = document.cookie; } catch (e) { cookie = "threw " + e.name; }' +
      'fetch("/view/api/sessions", { credentials: "include" }).then((r) => r.status, (e) => "failed").then((api) =>' +
      ' parent.postMessage({ cookie, api }, "*"));</script>';
    await client.callTool({ name: 'write_file', arguments: { session_id: session, path: 'probe.html', content: probe } });
    const seen = await page.evaluate(async (src) => {
      const got = new Promise((resolve) => window.addEventListener('message', (e: { data: unknown }) => resolve(e.data), { once: true }));
      const frame = document.createElement('iframe');
      frame.setAttribute('sandbox', 'allow-scripts');
      frame.src = src;
      document.body.append(frame);
      return got;
    }, `/view/api/${session}/file?path=probe.html&frame=1`);
    const { cookie, api } = seen as { cookie: string; api: number | string };
    assert.match(cookie, /^threw SecurityError/, 'the frame (an opaque origin) cannot read any cookie');
    assert.ok(api === 'failed' || api === 401 || api === 403, `the frame cannot call the view API (got ${api})`);
    // The file served outside a frame is never a document of the view's origin.
    const direct = await get(`${origin}/view/api/${session}/file?path=probe.html&frame=1`, { authorization: `Bearer ${TOKEN}` });
    assert.match(String(direct.headers['content-security-policy']), /^sandbox allow-scripts;/);
  });

  it('downloads the session as an .ipynb that validates against the nbformat schema', async () => {
    const notebook = await page.evaluate(async (path) => (await fetch(path)).json(), `/view/api/${session}/notebook.ipynb`);
    const validate = new Ajv({ strict: false }).compile(NBFORMAT_V4_5_SCHEMA);
    assert.ok(validate(notebook), JSON.stringify(validate.errors));
    const cells = (notebook as { cells: { source: string[]; outputs: { output_type: string; data?: Record<string, unknown> }[] }[] }).cells;
    assert.ok(cells.some((c) => c.outputs.some((o) => o.output_type === 'display_data' && o.data?.['image/png'])));
    assert.ok(cells.some((c) => c.outputs.some((o) => o.output_type === 'error')));
  });

  it('shows files written and deleted by tools outside cells, between the cells', async () => {
    await page.goto(`${origin}/view/${session}`);
    await waitUntil(page, () => document.querySelector('.badge')?.textContent === 'idle');
    const call = async (name: string, args: Record<string, unknown>) =>
      structured((await client.callTool({ name, arguments: { session_id: session, ...args } })) as CallToolResult);
    await call('write_file', { path: 'tool-note.txt', content: 'from a tool' });
    await call('delete_file', { path: 'tool-note.txt' });
    await waitUntil(page, () => {
      const lines = [...document.querySelectorAll('.session-event')].map((n) => n.textContent ?? '');
      return lines.some((l) => /files written: \S*tool-note\.txt/.test(l)) && lines.some((l) => /deleted: \S*tool-note\.txt/.test(l));
    });
  });

  it("shows a DataFrame that is a cell's last value as a table, as a notebook does; the agent's reply keeps its text", async () => {
    const reply = await run(client, session, 'import pandas as pd\npd.DataFrame({"col_a": [1, 2], "col_b": [3, 4]})');
    assert.match(String(reply.result), /col_a\s+col_b/);
    assert.ok(!JSON.stringify(reply).includes('<table'), 'no HTML in the reply');
    await waitUntil(page, () => document.querySelectorAll('.result iframe.html-frame').length === 1);
    assert.equal(await page.$eval('.result iframe.html-frame', (f) => f.getAttribute('sandbox')), '', 'no scripts, no same origin');
    const frame = await (await page.$('.result iframe.html-frame'))!.contentFrame();
    await frame.waitForSelector('table.dataframe');
    assert.match(await frame.$eval('table.dataframe thead', (n) => n.textContent ?? ''), /col_a[\s\S]*col_b/);
  });

  it('lists the session on /view', async () => {
    await page.goto(`${origin}/view`);
    await waitUntil(page, (id) => document.querySelector('.session-link')?.textContent === id, {}, session);
    await page.screenshot({ path: join(OUT, `sessions-${target.name}.png`) });
  });
};
