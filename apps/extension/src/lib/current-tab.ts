/** The parts of the `chrome` API used to find the current tab, so tests can give their own. */
export interface TabsApi {
  tabs: { query(query: chrome.tabs.QueryInfo): Promise<chrome.tabs.Tab[]> };
  runtime: { getURL(path: string): string };
}

/**
 * The tab the person is looking at. The toolbar popup sees the page's tab as the active tab of the
 * current window; but when the popup page is opened as a tab or a window of its own, it sees
 * itself, so then the tab meant is the one used last among the active tabs of normal windows.
 * (Not `windows.getLastFocused({windowTypes: ['normal']})`: Firefox ignores `windowTypes`, logs
 * an error for it, and answers the popup's own window.)
 */
export async function findCurrentTab(api: TabsApi = chrome): Promise<chrome.tabs.Tab | undefined> {
  const ownPrefix = api.runtime.getURL('');
  const isOwn = (tab: chrome.tabs.Tab | undefined) => (tab?.url ?? tab?.pendingUrl ?? '').startsWith(ownPrefix);

  const [active] = await api.tabs.query({ active: true, currentWindow: true });
  if (active && !isOwn(active)) return active;
  const shown = await api.tabs.query({ active: true, windowType: 'normal' });
  return shown.filter((tab) => !isOwn(tab)).sort((a, b) => (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0))[0];
}
