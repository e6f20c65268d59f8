/** The parts of the `chrome` API used to find the current tab, so tests can give their own. */
export interface TabsApi {
  tabs: { query(query: chrome.tabs.QueryInfo): Promise<chrome.tabs.Tab[]> };
  windows: { getLastFocused(options: chrome.windows.QueryOptions): Promise<chrome.windows.Window> };
  runtime: { getURL(path: string): string };
}

/**
 * The tab the person is looking at. The toolbar popup sees the page's tab as the active tab of the
 * current window; but when the popup page is opened as a tab or a window of its own, it sees
 * itself, so then the active tab of the last-focused normal window is the one meant.
 */
export async function findCurrentTab(api: TabsApi = chrome): Promise<chrome.tabs.Tab | undefined> {
  const ownPrefix = api.runtime.getURL('');
  const isOwn = (tab: chrome.tabs.Tab | undefined) => (tab?.url ?? tab?.pendingUrl ?? '').startsWith(ownPrefix);

  const [active] = await api.tabs.query({ active: true, currentWindow: true });
  if (active && !isOwn(active)) return active;
  try {
    const window = await api.windows.getLastFocused({ windowTypes: ['normal'], populate: true });
    const tab = window.tabs?.find((candidate) => candidate.active);
    if (tab && !isOwn(tab)) return tab;
  } catch {
    // No normal window at all (e.g. only the popup window is open): nothing to shorten.
  }
  return undefined;
}
