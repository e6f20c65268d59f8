import { type BackgroundResult, shortenInBackground } from './lib/background-shorten.ts';
import { findCurrentTab } from './lib/current-tab.ts';

const MENU_ID = 'shorten-link';
const COMMAND = 'shorten-current-tab';
const OFFSCREEN_PATH = 'tabs/offscreen.html';

chrome.runtime.onInstalled.addListener(async () => {
  // An update keeps the previous version's menu items: start from none so the id is never taken.
  await chrome.contextMenus.removeAll();
  chrome.contextMenus.create({ id: MENU_ID, title: 'Shorten link', contexts: ['link', 'page'] });
});

chrome.contextMenus.onClicked.addListener((info, tab) => {
  if (info.menuItemId !== MENU_ID) return;
  // On a link: the link's target; anywhere else on a page: the page itself.
  const url = info.linkUrl ?? info.pageUrl ?? tab?.url;
  const title = info.linkUrl ? (info.selectionText ?? undefined) : tab?.title;
  void shortenAndCopy(url, title);
});

chrome.commands.onCommand.addListener(async (command) => {
  if (command !== COMMAND) return;
  const tab = await findCurrentTab();
  await shortenAndCopy(tab?.url, tab?.title);
});

let badgeTimer: ReturnType<typeof setTimeout> | undefined;

/** Shortens, copies the short URL, and confirms with the badge and a notification. */
async function shortenAndCopy(url: string | undefined, title: string | undefined): Promise<BackgroundResult> {
  const result = await shortenInBackground(url, title);
  const copied = result.ok ? await copyFromBackground(result.shortUrl) : false;
  await chrome.action.setBadgeBackgroundColor({ color: result.ok ? '#059669' : '#dc2626' });
  await chrome.action.setBadgeText({ text: result.ok ? '✓' : '!' });
  clearTimeout(badgeTimer);
  badgeTimer = setTimeout(() => chrome.action.setBadgeText({ text: '' }), 4000);
  chrome.notifications.create({
    type: 'basic',
    iconUrl: chrome.runtime.getURL(chrome.runtime.getManifest().icons?.['128'] ?? ''),
    title: result.ok ? (copied ? 'Short link copied' : 'Short link ready') : 'Could not shorten',
    message: result.ok ? result.shortUrl : result.message,
  });
  return result;
}

/**
 * A service worker has no DOM and so no clipboard: Chromium copies through an offscreen document;
 * Firefox's background page has a DOM of its own.
 */
async function copyFromBackground(text: string): Promise<boolean> {
  if (!chrome.offscreen) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      return false;
    }
  }
  const existing = await chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.OFFSCREEN_DOCUMENT] });
  if (existing.length === 0) {
    await chrome.offscreen.createDocument({
      url: OFFSCREEN_PATH,
      reasons: [chrome.offscreen.Reason.CLIPBOARD],
      justification: 'Copy the new short link to the clipboard',
    });
  }
  const copied: unknown = await chrome.runtime.sendMessage({ target: 'offscreen', type: 'copy', text });
  return copied === true;
}
