/**
 * The browser view (docs/view.md) in real browsers: Debian's headless Chromium and Firefox ESR driven by
 * puppeteer-core (the system executables, no browser download; test/browsers.ts), over the real server, while the
 * SDK's real Client runs cells. The main scenarios run in each browser; a Plotly chart (one cell: importing plotly
 * takes about 20 s) is watched live by a page in each at once. A browser that is not installed makes its tests skip
 * with a clear message (CI installs both: .ci/run). Screenshots go under the test's tmp output, never git.
 */
import { Ajv } from 'ajv';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/client';
import type { Browser, Page } from 'puppeteer-core';
import { BROWSERS, CHROMIUM, newPage, SharedBrowsers, waitUntil, type BrowserTarget } from '../browsers.js';
import { startServer, type Harness } from '../helpers.js';
import { connectHttp, startHttp, type RunningHttp } from '../http-helpers.js';
import { NBFORMAT_V4_5_SCHEMA } from './nbformat-schema.js';

// The functions given to page.evaluate run in the browser; the build has Node's types only (no DOM lib), so the two
// globals they use are declared loosely here rather than adding the DOM lib to the whole program.
declare const document: any;
declare const window: any;

const TOKEN = 'view-test-token-0123456789abcdef';
const OUT = mkdtempSync(join(tmpdir(), 'pyodide-mcp-view-'));

// One instance of each browser for the whole file (Firefox takes seconds to start), closed at its end.
const browsers = new SharedBrowsers();
after(() => browsers.closeAll());

/** A raw GET: status and body (no cookie, no redirects followed). */
function get(
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
function post(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end();
  });
}

function structured(result: CallToolResult): Record<string, unknown> {
  assert.ok(!result.isError, JSON.stringify(result.content));
  return result.structuredContent as Record<string, unknown>;
}

/** Runs a cell through the agent's client; `failing`: the cell is expected to raise. */
async function run(
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
const outputsText = (page: Page) => page.$$eval('.cell .outputs', (nodes) => nodes.map((n) => n.textContent ?? ''));

/** The main scenarios, in one browser: a server of its own, so each browser sees the same notebook from cell 1. */
const viewOverHttp = (target: BrowserTarget) => () => {
  let server: RunningHttp;
  let client: Client;
  let browser: Browser;
  let page: Page;
  let origin: string;
  let session: string;

  before(async () => {
    server = await startHttp([], {
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

  it("streams a running cell's output: a line printed before a second of work shows before the call returns", async () => {
    await page.goto(`${origin}/view/${session}`);
    await waitUntil(page, () => document.querySelector('.badge')?.textContent === 'idle');
    // A busy second (time.sleep does not sleep on the legacy runtime); the markup is printed, never parsed.
    const code =
      'import time\nprint("streamed first <img src=x id=streamed-img>")\nend = time.perf_counter() + 1.5\n' +
      'while time.perf_counter() < end:\n    pass\nprint("streamed second")';
    let returned = false;
    const slow = run(client, session, code).then((reply) => ((returned = true), reply));
    await waitUntil(page, () => document.querySelector('.cell.running .stream.live')?.textContent?.includes('streamed first'));
    assert.equal(returned, false, 'the first line showed while the cell still ran');
    // A viewer that opens the page mid-cell gets what was streamed so far.
    const late = await newPage(browser);
    await late.goto(`${origin}/view/${session}`);
    await waitUntil(late, () => document.querySelector('.cell.running .stream.live')?.textContent?.includes('streamed first'));
    assert.equal(returned, false, 'the late viewer saw the first line while the cell still ran');
    const reply = await slow;
    assert.equal(reply.stdout, 'streamed first <img src=x id=streamed-img>\nstreamed second\n');
    for (const viewer of [page, late]) {
      await waitUntil(viewer, () => !document.querySelector('.cell.running'));
      assert.match((await outputsText(viewer)).at(-1)!, /streamed first <img src=x id=streamed-img>\nstreamed second/);
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

  it('lists the session on /view', async () => {
    await page.goto(`${origin}/view`);
    await waitUntil(page, (id) => document.querySelector('.session-link')?.textContent === id, {}, session);
    await page.screenshot({ path: join(OUT, `sessions-${target.name}.png`) });
  });
};

for (const target of BROWSERS) describe(`browser view over --http, in ${target.name}`, { skip: target.skip }, viewOverHttp(target));

const INSTALLED = BROWSERS.filter((b) => !b.skip);

const noBrowser = INSTALLED.length === 0 ? 'no browser found (see above)' : false;

describe('a Plotly chart in the view, live in each browser', { skip: noBrowser }, () => {
  let server: RunningHttp;
  let client: Client;
  let session: string;
  const pages: { target: BrowserTarget; page: Page }[] = [];

  before(async () => {
    // Plotly is in the legacy runtime's offline set (plotly 4.14, docs/runtimes.md), not in the modern one's.
    server = await startHttp(['--runtime', 'legacy'], { PYODIDE_MCP_AUTH_TOKEN: TOKEN, PYODIDE_MCP_MAX_TOTAL_MEMORY_MB: '65536' });
    client = await connectHttp(server.url, TOKEN);
    session = structured((await client.callTool({ name: 'create_session', arguments: {} })) as CallToolResult).session_id as string;
    for (const target of INSTALLED) {
      const page = await newPage(await browsers.get(target));
      pages.push({ target, page });
    }
  });
  after(async () => {
    await Promise.all(pages.map(({ page }) => page.close()));
    await client?.close();
    await server?.stop();
  });

  it('appears without reload, drawn by plotly.js, answers the mouse, and cannot read the cookie or call the API', async () => {
    for (const { page } of pages) {
      await page.goto(`${server.url.origin}/view/${session}?token=${TOKEN}`);
      await waitUntil(page, () => document.querySelector('.badge')?.textContent === 'idle');
    }
    // One Plotly cell for the whole file: its first import takes about 20 s on the legacy runtime.
    const reply = await run(
      client,
      session,
      "import plotly.graph_objects as go\nfig = go.Figure(go.Scatter(x=[1, 2, 3], y=[4, 1, 7], mode='lines+markers', name='trend'))\nfig.show()",
      false,
      240,
    );
    const display = reply.display as { mime_type: string; path?: string }[];
    assert.deepEqual(
      display.map((d) => [d.mime_type, d.path]),
      [['text/html', `figures/cell${String(reply.execution_count)}_1.html`]],
    );

    for (const { target, page } of pages) {
      const handle = await page.waitForSelector('iframe.html-frame.chart', { timeout: 10_000 });
      assert.equal(
        await handle!.evaluate((f) => f.getAttribute('sandbox')),
        'allow-scripts',
        `${target.name}: scripts, no allow-same-origin`,
      );
      const frame = (await handle!.contentFrame())!;
      // plotly.js (inlined in the file, 3.5 MB) ran in the frame and drew the figure: its SVG with the trace's points.
      await frame.waitForSelector('svg.main-svg .scatterlayer .trace .point', { timeout: 120_000 });
      assert.equal((await frame.$$('.scatterlayer .trace .point')).length, 3, target.name);
      // Live: the mouse over the last point shows plotly's hover label with its value. (The point's place is worked
      // out here: puppeteer's hover of an element in a frame asks Firefox 140 for a locator it does not have.)
      await handle!.evaluate((f) => f.scrollIntoView({ block: 'center' }));
      const inner = await handle!.evaluate((f) => {
        const box = f.getBoundingClientRect();
        return { x: box.x + f.clientLeft, y: box.y + f.clientTop };
      });
      const point = await frame.evaluate(() => {
        const box = document.querySelectorAll('.scatterlayer .trace .point')[2].getBoundingClientRect();
        return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      });
      await page.mouse.move(inner.x + point.x, inner.y + point.y);
      await waitUntil(frame, () => /7/.test(document.querySelector('.hoverlayer')?.textContent ?? ''), { timeout: 10_000 });
      await page.screenshot({ path: join(OUT, `plotly-${target.name}.png`) });

      // The chart's frame is an opaque origin: no cookie, no page, no view API (its CSP has no connect-src either).
      const reach = await frame.evaluate(async () => {
        const attempt = async (what: () => unknown) => {
          try {
            return String(await what());
          } catch (error) {
            return `threw ${(error as { name: string }).name}`;
          }
        };
        return {
          origin: String(window.origin),
          cookie: await attempt(() => document.cookie),
          parent: await attempt(() => window.parent.document.title),
          api: await attempt(async () => (await fetch('/view/api/sessions', { credentials: 'include' })).status),
        };
      });
      assert.equal(reach.origin, 'null', target.name);
      assert.match(reach.cookie, /^threw SecurityError/, `${target.name}: no cookie readable (got ${reach.cookie})`);
      assert.match(reach.parent, /^threw SecurityError/, target.name);
      // No answer: the frame's CSP has no connect-src (and the API would refuse it: no cookie, not same-origin).
      assert.match(reach.api, /^threw TypeError$/, `${target.name}: the view API is out of reach (got ${reach.api})`);
      assert.doesNotMatch(await page.title(), /pwned/);
    }
  });
});

describe('browser view with tenants (--auth-token-file)', () => {
  const ALICE = 'alice-token-0123456789abcdef';
  const BOB = 'bob-token-0123456789abcdef0';
  let server: RunningHttp;
  let client: Client;

  before(async () => {
    const tokens = join(OUT, 'tokens');
    writeFileSync(tokens, `alice=${ALICE}\nbob=${BOB}\n`, { mode: 0o600 });
    server = await startHttp([], { PYODIDE_MCP_AUTH_TOKEN_FILE: tokens, PYODIDE_MCP_MAX_TOTAL_MEMORY_MB: '65536' });
    client = await connectHttp(server.url, ALICE);
  });
  after(async () => {
    await client?.close();
    await server?.stop();
  });

  it("shows a tenant its own sessions only: another tenant's token gets the 404 of an unknown session", async () => {
    const id = structured((await client.callTool({ name: 'create_session', arguments: {} })) as CallToolResult).session_id as string;
    const { origin } = server.url;
    const as = (token: string) => ({ authorization: `Bearer ${token}` });
    const listed = (body: string) => (JSON.parse(body) as { sessions: { session_id: string }[] }).sessions.map((s) => s.session_id);
    assert.deepEqual(listed((await get(`${origin}/view/api/sessions`, as(ALICE))).body), [id]);
    assert.deepEqual(listed((await get(`${origin}/view/api/sessions`, as(BOB))).body), []);
    assert.equal((await get(`${origin}/view/${id}`, as(ALICE))).status, 200);
    for (const path of [`/view/${id}`, `/view/api/${id}/events`, `/view/api/${id}/files`, `/view/api/${id}/notebook.ipynb`]) {
      assert.equal((await get(`${origin}${path}`, as(BOB))).status, 404, path);
    }
  });
});

describe('browser view in stdio mode (--view)', { skip: CHROMIUM.skip }, () => {
  let h: Harness;
  let browser: Browser;

  before(async () => {
    h = await startServer(['--view', '127.0.0.1:0', '--view-control']);
    browser = await browsers.get(CHROMIUM);
  });
  after(async () => {
    await h?.client.close();
  });

  it('logs a URL with a fresh token that opens the view, and shows the cells the client runs', async () => {
    const deadline = Date.now() + 30_000;
    const logged = () => /view: (http:\/\/127\.0\.0\.1:\d+\/view\?token=[\w-]+)/.exec(h.stderr());
    while (!logged() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const match = logged();
    assert.ok(match, h.stderr());
    const url = new URL(match[1]!);
    assert.equal((await get(`${url.origin}/view`)).status, 401);
    const created = structured(await h.call('execute_code', { code: 'msg = "from stdio"\nprint(msg)' }));
    const page = await browser.newPage();
    await page.goto(`${url.origin}/view/${String(created.session_id)}?token=${url.searchParams.get('token')}`);
    await page.waitForFunction(() => document.querySelector('.cell .outputs')?.textContent?.includes('from stdio'));
    await h.call('execute_code', { session_id: created.session_id, code: 'print("second")' });
    await page.waitForFunction(() => document.querySelectorAll('.cell').length === 2);
    await page.screenshot({ path: join(OUT, 'stdio.png') });

    // --view-control: the Interrupt button stops the running cell; the agent's reply says so, the session lives on.
    const looping = h.call('execute_code', { session_id: created.session_id, code: 'while True:\n    pass' });
    await page.waitForFunction(() => document.querySelector('.cell.running') !== null);
    await page.click('button.danger');
    const reply = await looping;
    assert.match(JSON.stringify(reply.content), /cancel|interrupt/i);
    await page.waitForFunction(() => document.querySelector('.cell.running') === null && document.querySelectorAll('.cell').length === 3);
    const after = structured(await h.call('execute_code', { session_id: created.session_id, code: 'msg' }));
    assert.equal(after.result, "'from stdio'");
    await page.close();
  });
});
