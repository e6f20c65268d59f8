/**
 * Where the dashboard keeps the API key between page loads (docs/dashboard.md, *Signing in*): the
 * tab's sessionStorage by default, so closing the browser signs out; localStorage only when the
 * person ticks "Remember on this device". Never a cookie (it would travel with every request,
 * redirects included) and never the URL.
 */
export const KEY_ITEM = 'shortlinks.apiKey';

/** The two Web Storage areas, passed in so tests can give fresh ones. */
export interface KeyStores {
  session: Storage;
  local: Storage;
}

export interface StoredKey {
  key: string;
  remembered: boolean;
}

const browserStores = (): KeyStores => ({ session: window.sessionStorage, local: window.localStorage });

/** The key kept by an earlier sign-in, if any (this tab's first, then this device's). */
export function storedKey(stores: KeyStores = browserStores()): StoredKey | undefined {
  const inSession = readItem(stores.session);
  if (inSession) return { key: inSession, remembered: false };
  const onDevice = readItem(stores.local);
  if (onDevice) return { key: onDevice, remembered: true };
  return undefined;
}

/**
 * Keeps the key of a successful sign-in, in one place only. False when the browser refused to
 * store it (storage disabled or full): the dashboard then holds it in memory until the page closes.
 */
export function keepKey(key: string, remember: boolean, stores: KeyStores = browserStores()): boolean {
  forgetKey(stores);
  try {
    (remember ? stores.local : stores.session).setItem(KEY_ITEM, key);
    return true;
  } catch {
    return false;
  }
}

/** Signing out: the key leaves both places. */
export function forgetKey(stores: KeyStores = browserStores()): void {
  for (const storage of [stores.session, stores.local]) {
    try {
      storage.removeItem(KEY_ITEM);
    } catch {
      // Storage the browser disabled holds nothing to remove.
    }
  }
}

/** Storage can throw (disabled by the browser's settings); a missing key is then the honest answer. */
function readItem(storage: Storage): string | undefined {
  try {
    const value = storage.getItem(KEY_ITEM);
    return value && value.trim() !== '' ? value : undefined;
  } catch {
    return undefined;
  }
}
