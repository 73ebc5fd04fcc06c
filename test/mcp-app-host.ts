/**
 * A page acting as an MCP Apps host, for the browser tests of the `ui://` apps (test/e2e/cell-app.test.ts,
 * session-app.test.ts, view-plotly.test.ts): it loads an app's HTML in a sandboxed frame as hosts do, speaks the
 * spec's postMessage protocol to it (ui/initialize, then the tool's input and result), and forwards the app's own
 * requests (tools/call, resources/read) to the real server through the test's SDK client. Plus the checks every app
 * must pass against output that carries script.
 */
import assert from 'node:assert/strict';
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import type { Frame, Page } from 'puppeteer-core';
import { plotlyHashSources } from '../src/view/plotly-scripts.js';
import { waitUntil } from './browsers.js';

// The functions given to page.evaluate run in the browser (the build has no DOM lib).
declare const document: any;
declare const window: any;

export interface AppHost {
  /** The app's requests the host forwarded to the server, in order (method, and the tool's name for tools/call). */
  readonly forwarded: string[];
  /** Methods the host refuses, as a host without serverResources (say) would. */
  refused: string[];
}

/** Makes `page` forward the apps' requests to the server through `client` (once per page). */
export async function hostApps(page: Page, client: Client): Promise<AppHost> {
  const host: AppHost = { forwarded: [], refused: [] };
  await page.exposeFunction('forwardToServer', async (method: string, params: any) => {
    if (host.refused.includes(method)) return { error: { code: -32601, message: `${method} is not available in this host` } };
    host.forwarded.push(method === 'tools/call' ? `tools/call ${params.name}` : method);
    try {
      if (method === 'tools/call') return { result: await client.callTool(params, { timeout: 120_000 }) };
      if (method === 'resources/read') return { result: await client.readResource(params) };
      return { error: { code: -32601, message: `${method} is not forwarded` } };
    } catch (error) {
      return { error: { code: -32603, message: (error as Error).message } };
    }
  });
  return host;
}

export interface MountOptions {
  /** What the host tells the app at ui/initialize (e.g. toolInfo: the tool that was called). */
  hostContext?: object;
  /** Whether the host forwards the app's requests (hostCapabilities serverTools and serverResources; needs hostApps). */
  forwards?: boolean;
  /** Remove the apps mounted before (a frame scrolled out of view gets no animation frames). */
  alone?: boolean;
}

/**
 * Mounts the app in a new frame of the host page (sandbox="allow-scripts", an opaque origin, as hosts do) and sends
 * it the call's arguments and result. Returns the app's frame; the caller waits for what it expects to see.
 */
export async function mountApp(
  page: Page,
  appHtml: string,
  args: Record<string, unknown>,
  result: CallToolResult,
  { hostContext = {}, forwards = false, alone = false }: MountOptions = {},
): Promise<Frame> {
  const index = await page.evaluate(
    (html: string, toolArgs: any, toolResult: any, context: any, forward: boolean, only: boolean) => {
      window.messages ??= [];
      if (only) for (const old of document.querySelectorAll('body > iframe')) old.remove();
      const frame = document.createElement('iframe');
      frame.setAttribute('sandbox', 'allow-scripts');
      frame.style.cssText = 'width: 860px; height: 600px';
      frame.srcdoc = html;
      window.addEventListener('message', async (event: any) => {
        if (event.source !== frame.contentWindow) return;
        const message = event.data;
        window.messages.push(message);
        const reply = (m: any) => frame.contentWindow.postMessage({ jsonrpc: '2.0', ...m }, '*');
        if (message.method === 'ui/initialize') {
          reply({
            id: message.id,
            result: {
              protocolVersion: '2026-01-26',
              hostInfo: { name: 'test-host', version: '1' },
              hostCapabilities: forward ? { serverTools: {}, serverResources: {} } : {},
              hostContext: context,
            },
          });
        } else if (message.method === 'ui/notifications/size-changed') {
          frame.style.height = `${message.params.height}px`; // a host fits the frame to the app
        } else if (message.method === 'ui/notifications/initialized') {
          reply({ method: 'ui/notifications/tool-input', params: { arguments: toolArgs } });
          reply({ method: 'ui/notifications/tool-result', params: toolResult });
        } else if (forward && message.id !== undefined && typeof message.method === 'string') {
          // The app's own requests (tools/call, resources/read) go to the server, as a host forwards them.
          reply({ id: message.id, ...(await window.forwardToServer(message.method, message.params)) });
        }
      });
      document.body.append(frame);
      return document.querySelectorAll('body > iframe').length - 1;
    },
    appHtml,
    args,
    result as any,
    hostContext as any,
    forwards,
    alone,
  );
  const handle = (await page.$$('body > iframe'))[index];
  return (await handle.contentFrame())!;
}

/**
 * What must hold after an app showed output that carries script (a <script>, an <img onerror>, each setting
 * `pwned` on its parent or posting "pwned"): no script ran in the app or the host page, none in the output's frame
 * (`outputFrame`), the app's document holds its own two scripts and none of the output's elements, its CSP blocks a
 * script added to it, and the host got no message from the output.
 */
export async function assertOutputRanNoScript(page: Page, app: Frame, outputFrame: Frame): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 500)); // time for an onerror or onload to fire, if it could
  assert.equal(await app.evaluate(() => window.pwned), undefined, 'no script ran in the app');
  assert.equal(await page.evaluate(() => window.pwned), undefined, 'nor in the host');
  assert.equal(await outputFrame.evaluate(() => window.ran), undefined, 'nor in the output frame');
  // The app's own scripts only: the shared one (view/app-common.js, inlined) and the page's.
  assert.equal(await app.evaluate(() => document.querySelectorAll('script').length), 2, "the app's own scripts only");
  assert.equal(await app.evaluate(() => document.querySelector('#evil')), null, 'output HTML never in the app DOM');
  // The app's CSP itself: a script added to its document (as an injection would) does not run.
  const injected = await app.evaluate(async () => {
    const script = document.createElement('script');
    script.textContent = 'window.injected = 1';
    document.body.append(script);
    await new Promise((resolve) => setTimeout(resolve, 100));
    return window.injected;
  });
  assert.equal(injected, undefined, "only the app's own scripts run (CSP by hash)");
  const messages = await page.evaluate(() => window.messages.map((m: any) => (typeof m === 'string' ? m : m.method)));
  assert.ok(!messages.includes('pwned'), 'the output reached the host with no message');
}

/** Waits until the app's frame shows what `predicate` (run in it) looks for. */
export const appShows = (app: Frame, predicate: () => unknown, timeout = 60_000) => waitUntil(app, predicate, { timeout, interval: 50 });

/**
 * An app's CSP (in its <meta>): nothing by default, images as data: only, and scripts by hash alone: the page's own
 * two, then the two of a Plotly chart (src/view/plotly-scripts.ts); no 'unsafe-inline', and 'unsafe-eval' for plotly.js.
 */
export function assertScriptsByHash(html: string): void {
  const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1] ?? '';
  assert.match(csp, /^default-src 'none'; /);
  assert.match(csp, /; img-src data:; /);
  const scripts = /; script-src ([^;]*);/.exec(csp)?.[1].split(' ') ?? [];
  assert.equal(scripts.length, 2 + plotlyHashSources().length + 1, scripts.join(' '));
  // plotly.js compiles code it generates as it loads: eval for the scripts that run, never a script that is not listed.
  assert.equal(scripts.pop(), "'unsafe-eval'");
  for (const source of scripts) assert.match(source, /^'sha256-[A-Za-z0-9+/=]+'$/, 'scripts by hash only');
  assert.deepEqual(scripts.slice(2), plotlyHashSources(), "then a Plotly chart's: the loader and each known plotly.js");
}
