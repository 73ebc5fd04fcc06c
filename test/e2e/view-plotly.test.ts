/**
 * A Plotly chart, live in each installed browser at once, in the browser view and in the cell's MCP App (one cell:
 * importing plotly takes seconds). Shares view-scenarios.ts' helpers and mcp-app-host.ts' host.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/client';
import type { ElementHandle, Frame, Page } from 'puppeteer-core';
import { BROWSERS, newPage, waitUntil, type BrowserTarget } from '../browsers.js';
import { connectHttp, startHttp, type RunningHttp } from '../http-helpers.js';
import { hostApps, mountApp } from '../mcp-app-host.js';
import { CELL_APP_URI, SESSION_APP_URI } from '../../src/view/mcp-apps.js';
import { browsers, OUT, structured, TOKEN } from './view-scenarios.js';

// The functions given to page.evaluate run in the browser (no DOM lib in the build: see view-scenarios.ts).
declare const document: any;
declare const window: any;

const INSTALLED = BROWSERS.filter((b) => !b.skip);

const noBrowser = INSTALLED.length === 0 ? 'no browser found (see above)' : false;

/** Text that would end the figure's data block early, were it not escaped (the chart's `customdata`). */
const BREAKOUT = '</script><script>document.body.dataset.pwned = 1</script>';
// One Plotly cell for the whole file: its first import takes about 20 s on the legacy runtime. Its post_script runs
// where any inline script may (the view's chart frame), not in the MCP App, which runs plotly.js and the loader alone.
const CHART_CELL =
  'import plotly.graph_objects as go\n' +
  `fig = go.Figure(go.Scatter(x=[1, 2, 3], y=[4, 1, 7], mode='lines+markers', name='trend', customdata=[${JSON.stringify(BREAKOUT)}] * 3))\n` +
  `fig.show(post_script="document.body.dataset.post = 'ran'")`;

/** Moves the mouse over the chart's last point (the point is worked out here: puppeteer's hover of an element in a
 * frame asks Firefox 140 for a locator it does not have) and waits for plotly's hover label with its value. */
async function hoverLastPoint(page: Page, frames: ElementHandle[], chart: Frame): Promise<void> {
  await frames[0].evaluate((f) => f.scrollIntoView({ block: 'start' }));
  let x = 0;
  let y = 0;
  for (const handle of frames) {
    const box = await handle.evaluate((f) => {
      const rect = f.getBoundingClientRect();
      return { x: rect.x + f.clientLeft, y: rect.y + f.clientTop };
    });
    x += box.x;
    y += box.y;
  }
  const point = await chart.evaluate(() => {
    const box = document.querySelectorAll('.scatterlayer .trace .point')[2].getBoundingClientRect();
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  });
  await page.mouse.move(x + point.x, y + point.y);
  await waitUntil(chart, () => /7/.test(document.querySelector('.hoverlayer')?.textContent ?? ''), { timeout: 10_000 });
}

/** What the chart's frame can reach, and which of its scripts ran. */
const reachOf = (chart: Frame) =>
  chart.evaluate(async () => {
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
      pwned: String(document.body.dataset.pwned),
      post: String(document.body.dataset.post),
      customdata: JSON.parse(document.getElementById('pyodide-mcp-figure').textContent).data[0].customdata[0],
    };
  });

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

  let reply: CallToolResult;

  it('appears in the view without reload, drawn by plotly.js, answers the mouse, and cannot read the cookie or call the API', async () => {
    for (const { page } of pages) {
      await page.goto(`${server.url.origin}/view/${session}?token=${TOKEN}`);
      await waitUntil(page, () => document.querySelector('.badge')?.textContent === 'idle');
    }
    reply = (await client.callTool(
      { name: 'execute_code', arguments: { session_id: session, code: CHART_CELL, timeout_seconds: 240 } },
      { timeout: 300_000 },
    )) as CallToolResult;
    const r = structured(reply);
    assert.equal(r.success, true, JSON.stringify(r.error));
    assert.deepEqual(
      (r.display as { mime_type: string; path?: string }[]).map((d) => [d.mime_type, d.path]),
      [['text/html', `figures/cell${String(r.execution_count)}_1.html`]],
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
      await hoverLastPoint(page, [handle!], frame);
      await page.screenshot({ path: join(OUT, `plotly-${target.name}.png`) });

      // The chart's frame is an opaque origin: no cookie, no page, no view API (its CSP has no connect-src either).
      const reach = await reachOf(frame);
      assert.equal(reach.origin, 'null', target.name);
      assert.match(reach.cookie, /^threw SecurityError/, `${target.name}: no cookie readable (got ${reach.cookie})`);
      assert.match(reach.parent, /^threw SecurityError/, target.name);
      // No answer: the frame's CSP has no connect-src (and the API would refuse it: no cookie, not same-origin).
      assert.match(reach.api, /^threw TypeError$/, `${target.name}: the view API is out of reach (got ${reach.api})`);
      assert.equal(reach.customdata, BREAKOUT, `${target.name}: the figure's text stays data`);
      assert.equal(reach.pwned, 'undefined', `${target.name}: nothing broke out of the data block`);
      assert.equal(reach.post, 'ran', `${target.name}: the view runs the chart's post_script (in the opaque frame)`);
      assert.doesNotMatch(await page.title(), /pwned/);
    }
  });

  it("is drawn live in the MCP Apps of the cell and of the session, where only plotly.js and the chart's loader run", async () => {
    assert.ok(reply, 'the chart cell ran');
    const appHtml = ((await client.readResource({ uri: CELL_APP_URI })).contents[0] as { text: string }).text;
    const sessionAppHtml = ((await client.readResource({ uri: SESSION_APP_URI })).contents[0] as { text: string }).text;
    const args = { session_id: session, code: CHART_CELL };
    for (const { target } of pages) {
      const page = await newPage(await browsers.get(target), { width: 900, height: 900 });
      try {
        const host = await hostApps(page, client);
        const app = await mountApp(page, appHtml, args, reply, { forwards: true });
        const chartHandle = await app.waitForSelector('iframe.chart-frame', { timeout: 60_000 });
        // Read through the host: whole is refused (plotly.js makes it larger than --max-reply-bytes allows a reply),
        // so in read_file's pages.
        assert.equal(host.forwarded[0], 'resources/read', target.name);
        assert.ok(host.forwarded.length > 1 && host.forwarded.slice(1).every((m) => m === 'tools/call read_file'), host.forwarded.join());
        assert.equal(await chartHandle!.evaluate((f) => f.getAttribute('sandbox')), 'allow-scripts', target.name);
        const chart = (await chartHandle!.contentFrame())!;
        await chart.waitForSelector('svg.main-svg .scatterlayer .trace .point', { timeout: 120_000 });
        assert.equal((await chart.$$('.scatterlayer .trace .point')).length, 3, target.name);
        const appHandle = (await page.$('body > iframe'))!;
        await hoverLastPoint(page, [appHandle, chartHandle!], chart);
        await page.screenshot({ path: join(OUT, `plotly-app-${target.name}.png`) });

        const reach = await reachOf(chart);
        assert.equal(reach.origin, 'null', target.name);
        assert.match(reach.parent, /^threw SecurityError/, `${target.name}: the app's document is out of reach`);
        assert.match(reach.api, /^threw TypeError$/, `${target.name}: nothing fetched (got ${reach.api})`);
        assert.equal(reach.customdata, BREAKOUT, target.name);
        assert.equal(reach.pwned, 'undefined', target.name);
        assert.equal(reach.post, 'undefined', `${target.name}: a script that is not plotly.js or the loader does not run`);
        assert.equal(await app.evaluate(() => document.querySelectorAll('script').length), 2, "the app's own scripts only");

        // The session's app draws it too, from the notebook export_notebook wrote (which names the file).
        const exportArgs = { session_id: session, path: `plotly-${target.name}.ipynb` };
        const exported = (await client.callTool({ name: 'export_notebook', arguments: exportArgs })) as CallToolResult;
        const sessionApp = await mountApp(page, sessionAppHtml, exportArgs, exported, { forwards: true, alone: true });
        const sessionChart = await sessionApp.waitForSelector('iframe.chart-frame', { timeout: 60_000 });
        const drawn = (await sessionChart!.contentFrame())!;
        await drawn.waitForSelector('svg.main-svg .scatterlayer .trace .point', { timeout: 120_000 });
        assert.equal((await drawn.$$('.scatterlayer .trace .point')).length, 3, `${target.name}: the session app`);
        assert.equal((await reachOf(drawn)).post, 'undefined', target.name);
      } finally {
        await page.close();
      }
    }
  });
});
