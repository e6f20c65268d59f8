import { pageKeyOf } from './page-key.ts';

/** Which link was made for which page, so the popup finds a page's link without creating one. */
export interface PageLinks {
  linkOf(pageUrl: string): Promise<string | undefined>;
  remember(pageUrl: string, linkId: string): Promise<void>;
  forget(pageUrl: string): Promise<void>;
}

const PAGE_LINKS_KEY = 'pageLinks';
/** Enough for years of shortening (about 150 bytes each); the oldest are dropped beyond it. */
const KEPT = 5_000;

async function stored(): Promise<Record<string, string>> {
  return ((await chrome.storage.local.get(PAGE_LINKS_KEY))[PAGE_LINKS_KEY] as Record<string, string> | undefined) ?? {};
}

/**
 * The extension's memory of page links, in `chrome.storage.local` (this browser only), keyed by the
 * page (lib/page-key.ts), newest last.
 */
export const browserPageLinks: PageLinks = {
  linkOf: async (pageUrl) => (await stored())[pageKeyOf(pageUrl)],
  remember: async (pageUrl, linkId) => {
    const key = pageKeyOf(pageUrl);
    const { [key]: _, ...others } = await stored();
    const entries = [...Object.entries(others), [key, linkId] as const].slice(-KEPT);
    await chrome.storage.local.set({ [PAGE_LINKS_KEY]: Object.fromEntries(entries) });
  },
  forget: async (pageUrl) => {
    const { [pageKeyOf(pageUrl)]: _, ...others } = await stored();
    await chrome.storage.local.set({ [PAGE_LINKS_KEY]: others });
  },
};
