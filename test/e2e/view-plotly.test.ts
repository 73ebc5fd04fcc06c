/**
 * A Plotly chart in the browser view, live in each installed browser at once (one cell: importing plotly takes
 * seconds). Shares view-scenarios.ts' helpers.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/client';
import type { Page } from 'puppeteer-core';
import { BROWSERS, newPage, waitUntil, type BrowserTarget } from '../browsers.js';
import { connectHttp, startHttp, type RunningHttp } from '../http-helpers.js';
import { browsers, OUT, run, structured, TOKEN } from './view-scenarios.js';

// The functions given to page.evaluate run in the browser (no DOM lib in the build: see view-scenarios.ts).
declare const document: any;
declare const window: any;

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
