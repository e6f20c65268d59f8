import { describe, expect, test } from 'vitest';
import { findCurrentTab, type TabsApi } from './current-tab.ts';

const OWN = 'chrome-extension://abcdefghijklmnop/';
const tab = (id: number, url: string, lastAccessed = 0) => ({ id, url, active: true, lastAccessed }) as chrome.tabs.Tab;

/** A browser whose current window shows these active tabs, and whose normal windows show those. */
function browserWith(activeInCurrentWindow: chrome.tabs.Tab[], activeInNormalWindows: chrome.tabs.Tab[]): TabsApi & { asked: unknown[] } {
  const asked: unknown[] = [];
  return {
    asked,
    tabs: {
      query: async (query) => {
        asked.push(query);
        return query.currentWindow ? activeInCurrentWindow : activeInNormalWindows;
      },
    },
    runtime: { getURL: (path) => `${OWN}${path}` },
  };
}

describe('findCurrentTab', () => {
  test('the toolbar popup takes the active tab of its window', async () => {
    const api = browserWith([tab(1, 'https://example.com/')], []);
    expect((await findCurrentTab(api))?.id).toBe(1);
    expect(api.asked).toEqual([{ active: true, currentWindow: true }]);
  });

  test('a popup page open as a tab or window of its own takes the tab used last among the normal windows’ active tabs', async () => {
    const api = browserWith(
      [tab(2, `${OWN}popup.html`)],
      [tab(3, 'https://example.org/', 1_000), tab(4, 'https://example.com/read', 2_000), tab(5, 'https://example.net/', 1_500)],
    );
    expect((await findCurrentTab(api))?.id).toBe(4);
    expect(api.asked).toEqual([
      { active: true, currentWindow: true },
      { active: true, windowType: 'normal' },
    ]);
  });

  test('never returns the extension’s own page, and copes with no normal window at all', async () => {
    expect(await findCurrentTab(browserWith([tab(2, `${OWN}popup.html`)], [tab(5, `${OWN}tabs/manage.html`, 9_000)]))).toBeUndefined();
    expect(await findCurrentTab(browserWith([tab(2, `${OWN}popup.html`)], []))).toBeUndefined();
  });
});
