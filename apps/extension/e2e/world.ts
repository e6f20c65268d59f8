import { createAccount, type TestAccount, type TestServer } from '@shortlinks/testing';
import { type ExtensionBrowser, launchExtensionBrowser } from './browser.ts';
import { startTestPages } from './pages.ts';
import { startTestServer } from './test-server.ts';

/** What a scenario file needs: the real server with a fresh account, Chromium with the extension, and web pages to shorten. */
export interface ScenarioWorld {
  server: TestServer;
  browser: ExtensionBrowser;
  pages: Awaited<ReturnType<typeof startTestPages>>;
  account: TestAccount;
  close(): Promise<void>;
}

export async function startScenarioWorld(): Promise<ScenarioWorld> {
  const [server, browser, pages] = await Promise.all([startTestServer(), launchExtensionBrowser(), startTestPages()]);
  const account = await createAccount(server);
  return {
    server,
    browser,
    pages,
    account,
    close: async () => {
      await browser.close();
      await pages.close();
      await server.close();
    },
  };
}

const BROWSER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

/** Visits a short link `times` times through the real redirect, as a browser does, and records the clicks. */
export async function visitLink(server: TestServer, slug: string, times = 1): Promise<void> {
  for (let i = 0; i < times; i++) await fetch(`${server.origin}/${slug}`, { redirect: 'manual', headers: { 'user-agent': BROWSER_AGENT } });
  await server.services.clicks.flush();
}
