import { describe, expect, test } from 'vitest';
import { findCurrentTab, type TabsApi } from './current-tab.ts';

const OWN = 'chrome-extension://abcdefghijklmnop/';
const tab = (id: number, url: string, active = true) => ({ id, url, active }) as chrome.tabs.Tab;

function browserWith(
  activeInCurrentWindow: chrome.tabs.Tab[],
  lastFocusedNormal: chrome.tabs.Tab[] | Error,
): TabsApi & { asked: unknown[] } {
  const asked: unknown[] = [];
  return {
    asked,
    tabs: { query: async () => activeInCurrentWindow },
    windows: {
      getLastFocused: async (options) => {
        asked.push(options);
        if (lastFocusedNormal instanceof Error) throw lastFocusedNormal;
        return { tabs: lastFocusedNormal } as chrome.windows.Window;
      },
    },
    runtime: { getURL: (path) => `${OWN}${path}` },
  };
}

describe('findCurrentTab', () => {
  test('the toolbar popup takes the active tab of its window', async () => {
    const api = browserWith([tab(1, 'https://example.com/')], []);
    expect((await findCurrentTab(api))?.id).toBe(1);
    expect(api.asked).toEqual([]);
  });

  test('a popup page open as a tab or window of its own falls back to the last-focused normal window', async () => {
    const api = browserWith([tab(2, `${OWN}popup.html`)], [tab(3, 'https://example.org/', false), tab(4, 'https://example.com/read')]);
    expect((await findCurrentTab(api))?.id).toBe(4);
    expect(api.asked).toEqual([{ windowTypes: ['normal'], populate: true }]);
  });

  test('never returns the extension’s own page, and copes with no normal window at all', async () => {
    expect(await findCurrentTab(browserWith([tab(2, `${OWN}popup.html`)], [tab(5, `${OWN}tabs/manage.html`)]))).toBeUndefined();
    expect(await findCurrentTab(browserWith([tab(2, `${OWN}popup.html`)], new Error('No window')))).toBeUndefined();
  });
});
