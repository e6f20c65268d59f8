import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import { buildDir } from '../scripts/build.ts';
import { FIREFOX } from './global-setup.ts';

/** The add-on id of the Firefox build (`browser_specific_settings.gecko.id` in package.json). */
const ADDON_ID = 'shortlinks@shortlinks.invalid';
/** The extension's moz-extension:// host, fixed through a pref so the tests know its pages' addresses. */
const EXTENSION_UUID = '5f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f';

/**
 * Debian's Firefox ESR with the Firefox build installed, driven over WebDriver BiDi (Firefox's
 * own remote protocol; playwright-core drives only Playwright's patched Firefox).
 *
 * Firefox's BiDi does not yet follow extension pages (Mozilla bug 1755014): it refuses to navigate
 * to them unless started with `--remote-allow-system-access`, and it sends no events for them, so
 * the helpers below navigate without waiting for events and then wait for the document. The same
 * access lets the tests run code in the browser window, where the keyboard shortcut's key and the
 * context menu live (BiDi's key presses reach the page, not the browser's shortcuts).
 */
export interface FirefoxExtension {
  browser: Browser;
  /** moz-extension://<uuid>/<path> */
  url(pathname: string): string;
  /** A new tab showing an extension page, loaded. */
  openExtensionPage(pathname: string): Promise<Page>;
  /** The popup page in a popup window of its own, as in the Chromium scenarios. */
  openPopupWindow(): Promise<Page>;
  /** Presses the extension's keyboard shortcut: runs the command of its key in the browser window. */
  pressShortcut(shortcut: { key: string; modifiers: string }): Promise<void>;
  /** Opens the page's context menu on an element and chooses the item with this label. */
  chooseFromContextMenu(page: Page, selector: string, label: string): Promise<void>;
  /** The toolbar button's badge text. */
  badge(): Promise<string>;
  /** The clipboard's text, pasted into a text area of a web page as a person would. */
  readClipboard(pageUrl: string): Promise<string>;
  /** Errors the extension's pages and background logged to the Browser Console so far. */
  extensionErrors(): Promise<string[]>;
  close(): Promise<void>;
}

export async function launchFirefoxExtension(): Promise<FirefoxExtension> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    args: ['--remote-allow-system-access'],
    extraPrefsFirefox: {
      'extensions.webextensions.uuids': JSON.stringify({ [ADDON_ID]: EXTENSION_UUID }),
      // Off the network: every host name resolves to loopback, where only the test pages (any
      // name under example.com, by port) and the test server answer. Puppeteer's profile already
      // turns off updates, telemetry and safe browsing; this catches whatever is left.
      'network.dns.forceResolve': '127.0.0.1',
    },
  });
  try {
    await browser.installExtension(buildDir('firefox-mv3'));
  } catch (error) {
    await browser.close();
    throw error;
  }
  const bidi = bidiOf(browser);
  const url = (pathname: string) => `moz-extension://${EXTENSION_UUID}/${pathname}`;

  /** Navigates without waiting for BiDi's navigation events, which extension pages never send. */
  const showExtensionPage = async (page: Page, pathname: string) => {
    await bidi.send('browsingContext.navigate', { context: contextIdOf(page), url: url(pathname), wait: 'none' });
    await page.waitForFunction(
      (expected) => location.href === expected && document.readyState === 'complete',
      { timeout: 10_000 },
      url(pathname),
    );
  };
  // An extension page kept open to ask the extension's APIs (the badge, windows).
  const control = await browser.newPage();
  await showExtensionPage(control, 'options.html');

  /** Runs an expression in the browser window (privileged: the toolbar, menus and clipboard); its value as JSON. */
  const inBrowserWindow = async (expression: string): Promise<unknown> => {
    // Any browser window runs privileged code; the scripts find the window they need themselves.
    const { result } = await bidi.send('browsingContext.getTree', { 'moz:scope': 'chrome' });
    const window = (result.contexts as { context: string; url: string }[]).find((context) => context.url.endsWith('browser.xhtml'));
    if (!window) throw new Error('no browser window');
    const answer = await bidi.send('script.evaluate', {
      expression: `Promise.resolve(${expression}).then((value) => JSON.stringify(value ?? null))`,
      target: { context: window.context },
      awaitPromise: true,
    });
    if (answer.result.type === 'exception') throw new Error(`in the browser window: ${answer.result.exceptionDetails.text}`);
    return JSON.parse(answer.result.result.value);
  };

  return {
    browser,
    url,
    openExtensionPage: async (pathname) => {
      const page = await browser.newPage();
      await showExtensionPage(page, pathname);
      return page;
    },
    openPopupWindow: async () => {
      const popupUrl = url('popup.html');
      await control.evaluate(
        (address) => chrome.windows.create({ url: address, type: 'popup', width: 420, height: 760 }).then(() => undefined),
        popupUrl,
      );
      // Puppeteer saw the window open (on about:blank) but not its navigation: find it by BiDi's tree.
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        const { result } = await bidi.send('browsingContext.getTree', {});
        const context = (result.contexts as { context: string; url: string }[]).find((candidate) => candidate.url === popupUrl);
        const page = context && (await browser.pages()).find((candidate) => contextIdOf(candidate) === context.context);
        if (page) {
          await page.waitForFunction(() => document.readyState === 'complete', { timeout: 10_000 });
          return page;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('the popup window did not open');
    },
    pressShortcut: async ({ key, modifiers }) => {
      // Firefox registers each command as a <key> in the window's keyset for the add-on; pressing
      // the keys fires its command event, which Firefox turns into commands.onCommand.
      const found = await inBrowserWindow(`(() => {
        const window = Services.wm.getMostRecentWindow('navigator:browser');
        const widget = ${JSON.stringify(ADDON_ID)}.toLowerCase().replace(/[^a-z0-9_-]/g, '_');
        const key = window.document.querySelector('#ext-keyset-id-' + widget + ' key[key=${JSON.stringify(key)}][modifiers=${JSON.stringify(modifiers)}]');
        if (key) key.doCommand();
        return Boolean(key);
      })()`);
      if (!found) throw new Error(`no ${modifiers}+${key} shortcut registered for the extension`);
    },
    chooseFromContextMenu: async (page, selector, label) => {
      await page.bringToFront();
      await page.click(selector, { button: 'right' });
      // The menu opens in the window showing the page; its items are XUL menuitems there.
      const chosen = await inBrowserWindow(`new Promise((resolve) => {
        const window = [...Services.wm.getEnumerator('navigator:browser')]
          .find((candidate) => candidate.gBrowser.selectedBrowser.currentURI.spec === ${JSON.stringify(page.url())});
        const menu = window?.document.getElementById('contentAreaContextMenu');
        if (!menu) return resolve('no window shows the page');
        const choose = () => {
          const item = [...menu.querySelectorAll('menuitem')].find((candidate) => !candidate.hidden && candidate.label === ${JSON.stringify(label)});
          if (item) menu.activateItem(item); else menu.hidePopup();
          resolve(item ? 'chosen' : 'no such item');
        };
        if (menu.state === 'open') choose();
        else {
          menu.addEventListener('popupshown', choose, { once: true });
          window.setTimeout(() => resolve('the menu did not open (' + menu.state + ')'), 5000);
        }
      })`);
      if (chosen !== 'chosen') throw new Error(`"${label}" in the context menu: ${chosen}`);
    },
    badge: () => control.evaluate(() => chrome.action.getBadgeText({})),
    readClipboard: async (pageUrl) => {
      const page = await browser.newPage();
      try {
        await page.goto(pageUrl);
        await page.bringToFront();
        await page.evaluate(() => document.body.append(Object.assign(document.createElement('textarea'), { id: 'paste-here' })));
        await page.click('#paste-here');
        await page.keyboard.down('Control');
        await page.keyboard.press('KeyV');
        await page.keyboard.up('Control');
        return await page.$eval('#paste-here', (area) => (area as HTMLTextAreaElement).value);
      } finally {
        await page.close();
      }
    },
    extensionErrors: async () =>
      (await inBrowserWindow(`(() => {
        const ours = (source) => String(source ?? '').startsWith(${JSON.stringify(url(''))});
        const thrown = Services.console.getMessageArray()
          .filter((message) => message instanceof Ci.nsIScriptError && !(message.flags & Ci.nsIScriptError.warningFlag) && ours(message.sourceName))
          .map((message) => message.sourceName + ': ' + message.errorMessage);
        const logged = Cc['@mozilla.org/consoleAPI-storage;1'].getService(Ci.nsIConsoleAPIStorage).getEvents()
          .filter((event) => event.level === 'error' && ours(event.filename))
          .map((event) => event.filename + ': ' + event.arguments.map(String).join(' '));
        return [...thrown, ...logged];
      })()`)) as string[],
    close: () => browser.close(),
  };
}

/** Fills a form field found by its label's text, as a person types. */
export async function fillField(page: Page, label: string, value: string): Promise<void> {
  const field = (await page.waitForFunction(
    (text) => [...document.querySelectorAll('label')].find((candidate) => candidate.textContent?.trim() === text)?.control ?? null,
    { timeout: 10_000 },
    label,
  )) as ElementHandle<HTMLInputElement>;
  await field.focus();
  await page.keyboard.down('Control');
  await page.keyboard.press('KeyA');
  await page.keyboard.up('Control');
  await page.keyboard.press('Backspace');
  await field.type(value);
}

/** Clicks the button whose text is this. */
export async function clickButton(page: Page, name: string): Promise<void> {
  await page.locator(`::-p-text(${name})`).click();
}

/** The text of the first element matching the selector, once there is one. */
export async function textOf(page: Page, selector: string): Promise<string> {
  const element = await page.waitForSelector(selector, { timeout: 10_000 });
  return (await element?.evaluate((node) => node.textContent ?? '')) ?? '';
}

/** Every open tab's screenshot, for a failed scenario (in the git-ignored e2e-results/). */
export async function screenshotAllTabs(browser: Browser, name: string): Promise<void> {
  const folder = path.resolve(import.meta.dirname, '../e2e-results');
  await mkdir(folder, { recursive: true });
  const safe = name.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 80);
  const pages = await browser.pages();
  await Promise.all(
    pages.map((page, index) =>
      page.screenshot({ path: path.join(folder, `firefox-${safe}-${index}.png`) as `${string}.png` }).catch(() => undefined),
    ),
  );
}

/**
 * Puppeteer's BiDi connection and a page's browsing-context id are not part of its typed API; the
 * tests need them only where Firefox's BiDi does not follow extension pages (see above).
 */
interface BidiConnection {
  // biome-ignore lint/suspicious/noExplicitAny: BiDi's answers, read where they are used.
  send(method: string, params: object): Promise<{ result: any }>;
}
const bidiOf = (browser: Browser) => (browser as unknown as { connection: BidiConnection }).connection;
const contextIdOf = (page: Page) => (page.mainFrame() as unknown as { _id: string })._id;
