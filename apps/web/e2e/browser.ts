import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { CHROMIUM } from './global-setup.ts';

/** What a page did that the dashboard's headers should have made impossible, or that is an error. */
export interface PageWatch {
  /** Every URL any page of the context requested (documents, scripts, styles, API calls, images). */
  requests: string[];
  /** Uncaught errors and console errors (network refusals aside: a 401 is logged by the browser). */
  errors: string[];
  /** Content-Security-Policy violations, as the page's own `securitypolicyviolation` events saw them. */
  violations: string[];
}

export interface DashboardBrowser {
  browser: Browser;
  /** A new context: its own cookies, storage and tabs, as a new browser profile. */
  newContext(options?: { viewport?: { width: number; height: number } }): Promise<{ context: BrowserContext; watch: PageWatch }>;
  close(): Promise<void>;
}

/**
 * Debian's Chromium, headless, kept off the network: names under example.com resolve to loopback
 * (where the destinations of the test links are served), every other name fails to resolve.
 */
export async function launchDashboardBrowser(): Promise<DashboardBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--no-default-browser-check',
      '--host-resolver-rules=MAP *.example.com 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    ],
  });
  return {
    browser,
    newContext: async ({ viewport = { width: 1200, height: 820 } } = {}) => {
      const context = await browser.newContext({ viewport });
      context.setDefaultTimeout(10_000);
      const watch: PageWatch = { requests: [], errors: [], violations: [] };
      context.on('request', (request) => watch.requests.push(request.url()));
      // Injected by the browser's debugging protocol, which the page's CSP does not govern.
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline code'}`);
        });
      });
      const observe = (page: Page) => {
        page.on('pageerror', (error) => watch.errors.push(`${page.url()}: ${error.message}`));
        page.on('console', (message) => {
          const text = message.text();
          if (/Content.Security.Policy|CSP violation/i.test(text)) watch.violations.push(text);
          else if (message.type() === 'error' && !text.startsWith('Failed to load resource')) watch.errors.push(`${page.url()}: ${text}`);
        });
      };
      context.on('page', observe);
      return { context, watch };
    },
    close: () => browser.close(),
  };
}

/** Every open page's screenshot, for a failed scenario (in the git-ignored e2e-results/). */
export async function screenshotAll(context: BrowserContext | undefined, name: string): Promise<void> {
  if (!context) return;
  const folder = path.resolve(import.meta.dirname, '../e2e-results');
  const safe = name.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 80);
  await Promise.all(
    context
      .pages()
      .map((page, index) => page.screenshot({ path: path.join(folder, `${safe}-${index}.png`), timeout: 5_000 }).catch(() => undefined)),
  );
}

/** Signs in through the form, as a person would. */
export async function signInWith(page: Page, origin: string, key: string, { remember = false } = {}): Promise<void> {
  await page.goto(`${origin}/app`);
  await page.getByLabel('API key').fill(key);
  if (remember) await page.getByLabel('Remember on this device').check();
  await page.getByRole('button', { name: 'Sign in with the key' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}
