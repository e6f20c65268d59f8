import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page, type Worker } from 'playwright-core';
import { buildDir } from '../scripts/build.ts';
import { CHROMIUM } from './global-setup.ts';

export const EXTENSION_BUILD = buildDir('chrome-mv3');

export interface ExtensionBrowser {
  context: BrowserContext;
  extensionId: string;
  worker: Worker;
  /** chrome-extension://<id>/<path> */
  url(pathname: string): string;
  /** Uncaught errors and console errors of the extension's pages so far (network failures aside). */
  pageErrors: string[];
  close(): Promise<void>;
}

/**
 * Debian's Chromium with the built extension loaded, headless, and kept off the network: host
 * names under `example.com` resolve to loopback (where the test pages are served), every other
 * name fails to resolve. `timezoneId` sets the time zone its pages see (the machine's otherwise).
 */
export async function launchExtensionBrowser(options: { timezoneId?: string } = {}): Promise<ExtensionBrowser> {
  const profile = await mkdtemp(path.join(tmpdir(), 'shortlinks-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: false,
    viewport: { width: 1200, height: 800 },
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
    args: [
      '--headless=new',
      `--disable-extensions-except=${EXTENSION_BUILD}`,
      `--load-extension=${EXTENSION_BUILD}`,
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--no-default-browser-check',
      '--host-resolver-rules=MAP *.example.com 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    ],
  });
  // Failures show in seconds, not after the scenario's whole time.
  context.setDefaultTimeout(10_000);
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 15_000 }));
  const extensionId = new URL(worker.url()).host;
  const pageErrors: string[] = [];
  const watch = (page: Page) => {
    const own = () => page.url().startsWith(`chrome-extension://${extensionId}/`);
    page.on('pageerror', (error) => own() && pageErrors.push(`${page.url()}: ${error.message}`));
    page.on('console', (message) => {
      // A refused request (the scenarios' unreachable server, a 401, a server that sends no CORS
      // headers) is logged by the browser, not thrown by our code.
      const refused = /^(Failed to load resource|Access to fetch at .* has been blocked by CORS policy)/.test(message.text());
      if (own() && message.type() === 'error' && !refused) {
        pageErrors.push(`${page.url()}: ${message.text()}`);
      }
    });
  };
  context.pages().forEach(watch);
  context.on('page', watch);
  return {
    pageErrors,
    context,
    extensionId,
    worker,
    url: (pathname) => `chrome-extension://${extensionId}/${pathname}`,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Every open page's screenshot, for a failed scenario (in the git-ignored e2e-results/). */
export async function screenshotAll(context: BrowserContext, name: string): Promise<void> {
  const folder = path.resolve(import.meta.dirname, '../e2e-results');
  const safe = name.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 80);
  await Promise.all(
    context
      .pages()
      .map((page: Page, index) =>
        page.screenshot({ path: path.join(folder, `${safe}-${index}.png`), timeout: 5_000 }).catch(() => undefined),
      ),
  );
}

/**
 * The toolbar popup's size: its content's width (380 px, and a scroll bar's when the content is
 * taller than the popup), and the height a person's toolbar popup was measured at (about 510 px;
 * Chromium allows up to 600). The scenarios drive the popup page at this size.
 */
export const TOOLBAR_POPUP = { width: 395, height: 510 } as const;

/**
 * Opens the popup page in a popup window of its own, as the toolbar button's popup would be
 * but reachable by Playwright, with the toolbar popup's viewport. The popup then sees itself as the
 * current window's active tab and must fall back to the last-focused normal window's tab: the real
 * code path.
 */
export async function openPopupWindow(browser: ExtensionBrowser): Promise<Page> {
  const popupUrl = browser.url('popup.html');
  const opened = browser.context.waitForEvent('page', { predicate: (page) => page.url() === popupUrl, timeout: 10_000 });
  await browser.worker.evaluate(
    (url) => chrome.windows.create({ url, type: 'popup', width: 420, height: 760, focused: true }).then(() => undefined),
    popupUrl,
  );
  const popup = await opened;
  await popup.setViewportSize(TOOLBAR_POPUP);
  await popup.waitForLoadState('domcontentloaded');
  return popup;
}

/** Saves the server address and key through the options page, as a person would. */
export async function configure(browser: ExtensionBrowser, serverUrl: string, apiKey: string): Promise<void> {
  const options = await browser.context.newPage();
  await options.goto(browser.url('options.html'));
  await options.getByLabel('Server address').fill(serverUrl);
  await options.getByLabel('API key').fill(apiKey);
  await options.getByRole('button', { name: 'Save' }).click();
  await options.getByRole('status').filter({ hasText: 'Saved. Connected' }).waitFor();
  await options.close();
}

/** The clipboard's text, read from a focused web page that is allowed to (extension origins cannot be granted it). */
export async function readClipboard(browser: ExtensionBrowser, pageUrl: string): Promise<string> {
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(pageUrl).origin });
  const page = await browser.context.newPage();
  try {
    await page.goto(pageUrl);
    await page.bringToFront();
    return await page.evaluate(() => navigator.clipboard.readText());
  } finally {
    await page.close();
  }
}
