import type { Link } from '@shortlinks/contract';
import { describe, expect, test } from 'vitest';
import type { Caller } from './accounts/api-key-service.ts';
import { CallerCache } from './accounts/caller-cache.ts';
import { CacheCoherence } from './cache-coherence.ts';
import { LinkReadCache } from './links/link-read-cache.ts';
import { NO_LINK, RedirectCache } from './redirects/redirect-cache.ts';

const link: Link = {
  id: 'lnk_a',
  domain: 'sho.rt',
  short_url: 'https://sho.rt/a',
  destination_url: 'https://example.com/',
  title: 'A',
  slug: 'a',
  tags: [],
  click_count: 0,
  created_at: 0,
};
const caller = (accountId: string): Caller => ({
  accountId,
  keyId: 'key_1',
  scopes: null,
  role: 'owner',
  user: null,
  session: null,
  plan: 'starter',
  rateLimit: null,
});

/** A process's caches, hearing announcements, each holding something of two accounts. */
function filledProcess() {
  const caches = { redirects: new RedirectCache(), linkReads: new LinkReadCache(), callers: new CallerCache() };
  const coherence = new CacheCoherence(caches);
  coherence.reset(true);
  caches.redirects.set(
    'a',
    { linkId: 'lnk_a', destination: 'https://example.com/', expiresAt: null, expirationUrl: null, smart: null },
    caches.redirects.snapshot(),
  );
  caches.redirects.set('gone', NO_LINK, caches.redirects.snapshot());
  for (const account of ['acc_1', 'acc_2']) {
    caches.linkReads.set(account, 'lnk_a', { ...link }, caches.linkReads.snapshot(account));
    caches.callers.set(`hash of ${account}`, caller(account), caches.callers.snapshot());
  }
  const kept = {
    slug: (slug: string) => caches.redirects.get(slug) !== undefined,
    link: (account: string) => caches.linkReads.get(account, 'lnk_a') !== undefined,
    callers: () => caches.callers.size,
  };
  return { caches, coherence, kept };
}

describe('what each change makes the process forget', () => {
  test('a link changed: where its slug redirects, and nothing else', () => {
    const { coherence, kept } = filledProcess();
    coherence.linkChanged('a');
    expect(kept.slug('a')).toBe(false);
    expect(kept.slug('gone')).toBe(true);
    expect(kept.link('acc_1')).toBe(true);
    expect(kept.callers()).toBe(2);
  });

  test("an account's links changed (or a mutation of it answered): that account's link reads only", () => {
    const { coherence, kept } = filledProcess();
    coherence.accountLinksChanged('acc_1');
    expect(kept.link('acc_1')).toBe(false);
    expect(kept.link('acc_2')).toBe(true);
    expect(kept.slug('a')).toBe(true);
    expect(kept.callers()).toBe(2);
  });

  test("a key revoked or an account changed: every caller, and the account's pages that carry its link limit", () => {
    const { coherence, kept } = filledProcess();
    coherence.callerChanged('acc_1');
    expect(kept.callers()).toBe(0);
    expect(kept.link('acc_1')).toBe(false);
    expect(kept.link('acc_2')).toBe(true);
    expect(kept.slug('a')).toBe(true);
  });

  test('clicks written here: every link read, whatever its account (click counts are in them)', () => {
    const { coherence, kept } = filledProcess();
    coherence.clicksWritten();
    expect(kept.link('acc_1')).toBe(false);
    expect(kept.link('acc_2')).toBe(false);
    expect(kept.slug('a')).toBe(true);
    expect(kept.callers()).toBe(2);
  });

  test('announcements lost: nothing is served until they arrive again, and then every cache starts empty', () => {
    const { caches, coherence, kept } = filledProcess();
    coherence.reset(false);
    expect([kept.slug('a'), kept.link('acc_1'), kept.callers()]).toEqual([false, false, 0]);
    // What the redirects knew is kept apart for an outage of the database, not served.
    expect(caches.redirects.keptSize).toBe(2);
    caches.linkReads.set('acc_1', 'lnk_a', { ...link }, caches.linkReads.snapshot('acc_1'));
    expect(kept.link('acc_1')).toBe(false);
    coherence.reset(true);
    expect(caches.redirects.keptSize).toBe(0);
    caches.linkReads.set('acc_1', 'lnk_a', { ...link }, caches.linkReads.snapshot('acc_1'));
    expect(kept.link('acc_1')).toBe(true);
  });
});

test("the change listener's handlers forget what the same changes made here do", () => {
  const { coherence, kept } = filledProcess();
  const logged: string[] = [];
  const handlers = coherence.changeHandlers((message) => logged.push(message));
  handlers.accountLinksChanged('acc_2');
  expect(kept.link('acc_2')).toBe(false);
  handlers.linkChanged('gone');
  expect(kept.slug('gone')).toBe(false);
  handlers.callerChanged('acc_1');
  expect([kept.callers(), kept.link('acc_1')]).toEqual([0, false]);
  handlers.reset(false);
  expect(kept.slug('a')).toBe(false);
  handlers.log?.('lost');
  expect(logged).toEqual(['lost']);
});
