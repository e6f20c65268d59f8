import { shortenInBackground } from './background-shorten.ts';
import { findCurrentTab } from './current-tab.ts';

const MENU_ID = 'shorten-link';
const COMMAND = 'shorten-current-tab';

/** Puts text on the clipboard from the background; false when the browser refused. */
export type BackgroundCopy = (text: string) => Promise<boolean>;

/**
 * The context menu and the keyboard shortcut: shorten, copy, confirm. Each browser's background
 * entry (`background.ts`, `background.firefox.ts`) registers them with its own way of copying.
 */
export function listenForShortening(copy: BackgroundCopy): void {
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
    void shortenAndCopy(copy, url, title);
  });

  chrome.commands.onCommand.addListener(async (command) => {
    if (command !== COMMAND) return;
    const tab = await findCurrentTab();
    await shortenAndCopy(copy, tab?.url, tab?.title);
  });
}

let badgeTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Shortens, copies the short URL, and confirms with the badge and a notification. A copy the
 * browser refused still leaves the link made: the notification then says "ready", not "copied".
 */
async function shortenAndCopy(copy: BackgroundCopy, url: string | undefined, title: string | undefined): Promise<void> {
  const result = await shortenInBackground(url, title);
  const copied = result.ok ? await copy(result.shortUrl).catch(() => false) : false;
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
}
