/**
 * The real browsers the browser tests drive through puppeteer-core, each the system's own executable (never a
 * browser download): Debian's Chromium over the DevTools protocol, and Debian's Firefox ESR over WebDriver BiDi
 * (puppeteer's protocol for Firefox). A browser that is not installed makes its tests skip with a message naming the
 * package; CI installs both (.ci/run).
 */
import { existsSync } from 'node:fs';
import puppeteer, { type Browser, type Frame, type Page } from 'puppeteer-core';

// Read inside the page by the functions given to evaluate (the build has Node's types only, no DOM lib).
declare const innerWidth: number;
declare const innerHeight: number;

export interface BrowserTarget {
  /** The name tests print: "Chromium" or "Firefox". */
  name: string;
  executable: string | null;
  /** node:test's skip option: false when the browser is installed, else why its tests skip. */
  skip: string | false;
  launch: () => Promise<Browser>;
}

function target(
  name: string,
  candidates: (string | undefined)[],
  install: string,
  launch: (path: string) => Promise<Browser>,
): BrowserTarget {
  const executable = candidates.find((p): p is string => p !== undefined && p !== '' && existsSync(p)) ?? null;
  return {
    name,
    executable,
    skip: executable ? false : `no ${name} found (${install}): the tests in ${name} need it`,
    launch: () => {
      if (!executable) throw new Error(`no ${name} executable`);
      return launch(executable);
    },
  };
}

export const CHROMIUM = target(
  'Chromium',
  [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'],
  'install Debian\'s "chromium" package, or set CHROMIUM_PATH',
  // --no-sandbox: CI runs as root, where Chromium's own sandbox cannot start; the pages under test are ours.
  (executablePath) => puppeteer.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] }),
);

export const FIREFOX = target(
  'Firefox',
  [process.env.FIREFOX_PATH, '/usr/bin/firefox-esr', '/usr/bin/firefox'],
  'install Debian\'s "firefox-esr" package, or set FIREFOX_PATH',
  // WebDriver BiDi is puppeteer's only protocol for Firefox (its default for browser: 'firefox').
  (executablePath) => puppeteer.launch({ browser: 'firefox', executablePath, headless: true }),
);

export const BROWSERS: readonly BrowserTarget[] = [CHROMIUM, FIREFOX];

/**
 * One instance of each browser for a whole test file, launched when first asked for (Firefox takes about 10 s to
 * start here): describe blocks share it through `shared.get`, and the file closes them all once, in a top-level after.
 */
export class SharedBrowsers {
  readonly #launched = new Map<BrowserTarget, Promise<Browser>>();

  get(target: BrowserTarget): Promise<Browser> {
    let browser = this.#launched.get(target);
    if (!browser) {
      browser = target.launch();
      this.#launched.set(target, browser);
    }
    return browser;
  }

  async closeAll(): Promise<void> {
    const all = [...this.#launched.values()];
    this.#launched.clear();
    await Promise.all(all.map(async (launching) => (await launching.catch(() => null))?.close()));
  }
}

/**
 * A new page of this size. Over WebDriver BiDi puppeteer sends the viewport together with a screen orientation, a
 * command Firefox 140 ESR does not have ("unknown command emulation.setScreenOrientationOverride"); the viewport
 * command itself succeeds, but the refusal may come back first, so after it the size is waited for.
 */
export async function newPage(browser: Browser, size = { width: 1200, height: 900 }): Promise<Page> {
  const page = await browser.newPage();
  try {
    await page.setViewport(size);
  } catch (error) {
    if (!/unknown command emulation\.setScreenOrientationOverride/.test(String(error))) throw error;
  }
  await waitUntil(page, (width, height) => innerWidth === width && innerHeight === height, { timeout: 10_000 }, size.width, size.height);
  return page;
}

/**
 * Waits until `predicate`, run in the page or frame, returns a truthy value (which it returns), polling from here.
 * Not puppeteer's waitForFunction: that builds its poller with `new Function` inside the page, which the view's CSP
 * (no 'unsafe-eval') blocks in Firefox ("call to Function() blocked by CSP"); a plain evaluate is not subject to it.
 */
export async function waitUntil<Args extends unknown[]>(
  context: Page | Frame,
  predicate: (...args: Args) => unknown,
  { timeout = 30_000, interval = 20 }: { timeout?: number; interval?: number } = {},
  ...args: Args
): Promise<unknown> {
  const deadline = Date.now() + timeout;
  let last: unknown = null;
  for (;;) {
    try {
      const value: unknown = await (context as Page).evaluate(predicate as (...a: unknown[]) => unknown, ...args);
      if (value) return value;
    } catch (error) {
      last = error; // a navigation replaced the document: ask the next one
    }
    if (Date.now() > deadline) {
      throw new Error(`waited ${timeout} ms for ${predicate.toString().slice(0, 300)}${last ? ` (last error: ${String(last)})` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
