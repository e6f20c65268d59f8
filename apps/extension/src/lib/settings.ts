/** What the options page stores: where the server is and the key to use. */
export interface Settings {
  /** The server's origin, e.g. `https://links.example.com`. */
  serverUrl: string;
  apiKey: string;
}

const SETTINGS_KEY = 'settings';
/** Origins of short links seen so far, so the popup can refuse to shorten a short link. */
const SHORT_ORIGINS_KEY = 'shortOrigins';
/** Titles the person typed for links in this browser, by link id. */
const TITLES_KEY = 'titles';

/**
 * Settings live in `chrome.storage.local`, not `sync`: the API key is a secret and must not be
 * copied to every browser signed in to the same account.
 */
export async function loadSettings(): Promise<Settings | undefined> {
  const stored = await chrome.storage.local.get(SETTINGS_KEY);
  const settings = stored[SETTINGS_KEY] as Partial<Settings> | undefined;
  if (!settings?.serverUrl || !settings.apiKey) return undefined;
  return { serverUrl: settings.serverUrl, apiKey: settings.apiKey };
}

export async function saveSettings(settings: Settings): Promise<void> {
  await chrome.storage.local.set({ [SETTINGS_KEY]: settings });
}

export async function loadShortOrigins(): Promise<string[]> {
  const stored = await chrome.storage.local.get(SHORT_ORIGINS_KEY);
  return (stored[SHORT_ORIGINS_KEY] as string[] | undefined) ?? [];
}

/** Remembers the origin of a short URL the server gave us (the short domain may differ from the server's). */
export async function rememberShortUrl(shortUrl: string): Promise<void> {
  const origin = new URL(shortUrl).origin;
  const known = await loadShortOrigins();
  if (!known.includes(origin)) await chrome.storage.local.set({ [SHORT_ORIGINS_KEY]: [...known, origin] });
}

/**
 * Remembers a title the person gave a link: shortening the page again sends the page's title,
 * which upsert stores, so the popup puts this one back (see lib/shorten.ts).
 */
export async function rememberTitle(linkId: string, title: string): Promise<void> {
  const stored = await chrome.storage.local.get(TITLES_KEY);
  const titles = (stored[TITLES_KEY] as Record<string, string> | undefined) ?? {};
  await chrome.storage.local.set({ [TITLES_KEY]: { ...titles, [linkId]: title } });
}

export async function rememberedTitle(linkId: string): Promise<string | undefined> {
  const stored = await chrome.storage.local.get(TITLES_KEY);
  return (stored[TITLES_KEY] as Record<string, string> | undefined)?.[linkId];
}
