// @vitest-environment happy-dom
import { describe, expect, test } from 'vitest';
import { forgetKey, KEY_ITEM, type KeyStores, keepKey, storedKey } from './key-storage.ts';

/** Two empty storage areas of the test's own. */
function freshStores(): KeyStores {
  const area = () => {
    const items = new Map<string, string>();
    return {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
      clear: () => items.clear(),
      key: (index: number) => [...items.keys()][index] ?? null,
      get length() {
        return items.size;
      },
    } satisfies Storage;
  };
  return { session: area(), local: area() };
}

/** A storage area the browser has disabled: every call throws, as Safari's private mode once did. */
const refusing = (): Storage =>
  new Proxy({} as Storage, {
    get: () => () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    },
  });

describe('where the API key is kept', () => {
  test('by default only for this tab: sessionStorage, nothing on the device', () => {
    const stores = freshStores();
    expect(keepKey('slk_one', false, stores)).toBe(true);
    expect(stores.session.getItem(KEY_ITEM)).toBe('slk_one');
    expect(stores.local.getItem(KEY_ITEM)).toBeNull();
    expect(storedKey(stores)).toEqual({ key: 'slk_one', remembered: false });
  });

  test('"Remember on this device" keeps it in localStorage only', () => {
    const stores = freshStores();
    keepKey('slk_two', true, stores);
    expect(stores.local.getItem(KEY_ITEM)).toBe('slk_two');
    expect(stores.session.getItem(KEY_ITEM)).toBeNull();
    expect(storedKey(stores)).toEqual({ key: 'slk_two', remembered: true });
  });

  test('a new sign-in replaces the key kept by the last one, wherever it was', () => {
    const stores = freshStores();
    keepKey('slk_old', true, stores);
    keepKey('slk_new', false, stores);
    expect(stores.local.getItem(KEY_ITEM)).toBeNull();
    expect(storedKey(stores)).toEqual({ key: 'slk_new', remembered: false });
  });

  test('signing out removes the key from both places', () => {
    const stores = freshStores();
    stores.session.setItem(KEY_ITEM, 'slk_a');
    stores.local.setItem(KEY_ITEM, 'slk_b');
    forgetKey(stores);
    expect(stores.session.length + stores.local.length).toBe(0);
    expect(storedKey(stores)).toBeUndefined();
  });

  test('storage the browser refuses: the key is not kept, and nothing throws', () => {
    const stores = { session: refusing(), local: refusing() };
    expect(keepKey('slk_x', false, stores)).toBe(false);
    expect(storedKey(stores)).toBeUndefined();
    expect(() => forgetKey(stores)).not.toThrow();
  });

  test('the real browser storage is used when none is given', () => {
    keepKey('slk_real', false);
    expect(window.sessionStorage.getItem(KEY_ITEM)).toBe('slk_real');
    forgetKey();
    expect(window.sessionStorage.getItem(KEY_ITEM)).toBeNull();
  });
});
