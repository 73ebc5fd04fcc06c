/** The browser view in Chromium over --http (the scenarios of view-scenarios.ts), with tenants, and in stdio mode (--view). */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/client';
import type { Browser } from 'puppeteer-core';
import { CHROMIUM } from '../browsers.js';
import { startServer, type Harness } from '../helpers.js';
import { connectHttp, startHttp, type RunningHttp } from '../http-helpers.js';
import { browsers, get, OUT, structured, viewOverHttp } from './view-scenarios.js';

// The functions given to page.evaluate run in the browser (no DOM lib in the build: see view-scenarios.ts).
declare const document: any;

describe(`browser view over --http, in ${CHROMIUM.name}`, { skip: CHROMIUM.skip }, viewOverHttp(CHROMIUM));

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
