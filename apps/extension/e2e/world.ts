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
