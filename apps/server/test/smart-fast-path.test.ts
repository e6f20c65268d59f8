import { redirectKey, Visits } from '@shortlinks/api/redirects';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createAccount, createLink, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { rawVisit, seen } from './raw-visits.ts';

/**
 * Smart links on the fast path (src/redirects/fast-redirects.ts, docs/redirects.md): a cached link
 * with rules, and a visit carrying a valid unlock cookie, are answered before Fastify, exactly as
 * Fastify's route answers them (same status, Location, headers and empty body; the click counted
 * with its country, device and trigger). Visits the request alone cannot decide (a click limit,
 * an expired link, the password form, a preview bot) still go to the route.
 *
 * Which path answered is observed, not changed: `Visits.smartVisit` is the route's step only.
 */

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

/** A visit from one visitor (as the trusted proxy names it). */
function visit(path: string, headers: Record<string, string> = {}, method = 'GET', body?: string) {
  return rawVisit(server.origin, path, {
    method,
    headers: { 'x-forwarded-for': '203.0.113.7', ...headers },
    ...(body === undefined ? {} : { body }),
  });
}

let server: TestServer;
let alice: TestAccount;
/** Calls of the route's smart step: a visit the fast path answered makes none. */
const routeVisits = vi.spyOn(Visits.prototype, 'smartVisit');

beforeAll(async () => {
  server = await startTestServer({ trustProxy: true, countryHeader: 'cf-ipcountry' });
  alice = await createAccount(server);
});
afterAll(() => server.close());

/** Forgets a link's cached answer: its next visit is the route's (a cache miss). */
const uncache = (slug: string) => server.services.redirects.cache.invalidate(redirectKey(null, slug));

/** Answered by the route (the link not cached), then by the fast path: both answers. */
async function routeThenFast(path: string, headers: Record<string, string> = {}) {
  uncache(path.slice(1).split('?')[0] ?? '');
  routeVisits.mockClear();
  const route = await visit(path, headers);
  expect(routeVisits).toHaveBeenCalledTimes(1);
  routeVisits.mockClear();
  const fast = await visit(path, headers);
  expect(routeVisits).not.toHaveBeenCalled();
  return { route, fast };
}

async function statsOf(id: string) {
  await server.services.clicks.flush();
  const response = await alice.call('GET', `/links/${id}/stats`);
  expect(response.status).toBe(200);
  return response.body;
}

/** Gives the password from a visitor's form: the cookie it sets. */
const unlock = async (slug: string, query = '') => {
  const right = await visit(
    `/${slug}${query}`,
    { 'content-type': 'application/x-www-form-urlencoded' },
    'POST',
    new URLSearchParams({ password: 'let me in' }).toString(),
  );
  expect(right.status).toBe(302);
  return String(right.headers['set-cookie']).split(';')[0] ?? '';
};

const rule = (conditions: Record<string, unknown>, to: string) => ({ if: conditions, destination_url: `https://example.com/${to}` });

describe('a link with rules', () => {
  test('is answered on the fast path as the route answers it, for a rule that holds and for none', async () => {
    const link = await createLink(alice, {
      slug: 'fast-rules',
      destination_url: 'https://example.com/default',
      rules: [
        rule({ device: 'mobile', language: 'fr' }, 'mobile-fr'),
        rule({ country: 'DE', query: { src: 'mail' } }, 'de-mail'),
        rule({ os: 'iOS' }, 'ios'),
      ],
    });
    const cases: [string, Record<string, string>, string][] = [
      ['/fast-rules', { 'user-agent': IPHONE, 'accept-language': 'fr-CA, en;q=0.5' }, 'https://example.com/mobile-fr'],
      ['/fast-rules', { 'user-agent': IPHONE, 'accept-language': 'en, fr;q=0' }, 'https://example.com/ios'],
      ['/fast-rules?src=mail', { 'cf-ipcountry': 'DE', 'x-request-id': 'visit-42' }, 'https://example.com/de-mail'],
      ['/fast-rules?src=web', { 'cf-ipcountry': 'DE' }, 'https://example.com/default'],
    ];
    for (const [path, headers, location] of cases) {
      const { route, fast } = await routeThenFast(path, headers);
      expect(route.status).toBe(302);
      expect(route.headers.location).toBe(location);
      expect(route.headers['cache-control']).toBe('no-store');
      expect(route.headers['x-robots-tag']).toBe('noindex');
      expect(route.headers['content-length']).toBe('0');
      expect(seen(fast)).toEqual(seen(route));
    }
    expect((await visit('/fast-rules?src=mail', { 'cf-ipcountry': 'DE', 'x-request-id': 'visit-42' })).headers['x-request-id']).toBe(
      'visit-42',
    );

    // Every GET counted once, whichever path answered, with the visit's country and device.
    const stats = await statsOf(link.id);
    expect(stats.totals.clicks).toBe(9);
    expect(stats.breakdowns.countries).toEqual(expect.arrayContaining([{ value: 'DE', clicks: 5 }]));
    expect(stats.breakdowns.devices).toEqual(expect.arrayContaining([{ value: 'mobile', clicks: 4 }]));
  });

  test('a country rule without a trusted header: the country of the bundled IP database, on both paths; the header still wins', {
    timeout: 30_000,
  }, async () => {
    await createLink(alice, {
      slug: 'fast-geo',
      destination_url: 'https://example.com/default',
      rules: [rule({ country: 'US' }, 'us'), rule({ country: 'GB' }, 'gb')],
    });
    for (const [address, location] of [
      ['8.8.8.8', 'https://example.com/us'],
      ['81.2.69.142', 'https://example.com/gb'],
      // A private address is nowhere.
      ['10.1.2.3', 'https://example.com/default'],
    ]) {
      const { route, fast } = await routeThenFast('/fast-geo', { 'x-forwarded-for': address ?? '' });
      expect(route.headers.location).toBe(location);
      expect(seen(fast)).toEqual(seen(route));
    }
    // The trusted header wins over the database.
    expect((await visit('/fast-geo', { 'x-forwarded-for': '8.8.8.8', 'cf-ipcountry': 'GB' })).headers.location).toBe(
      'https://example.com/gb',
    );
  });

  test('HEAD and bots are redirected on the fast path but not counted', async () => {
    const link = await createLink(alice, { slug: 'fast-rules-head', rules: [rule({ device: 'mobile' }, 'mobile')] });
    await routeThenFast('/fast-rules-head');
    routeVisits.mockClear();
    const head = await visit('/fast-rules-head', { 'user-agent': IPHONE }, 'HEAD');
    expect(head.status).toBe(302);
    expect(head.headers.location).toBe('https://example.com/mobile');
    const bot = await visit('/fast-rules-head', { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' });
    expect(bot.status).toBe(302);
    expect(routeVisits).not.toHaveBeenCalled();
    expect((await statsOf(link.id)).totals.clicks).toBe(2);
  });

  test('what the request alone cannot decide stays on the route: a click limit, expiry, a preview bot', async () => {
    await createLink(alice, { slug: 'fast-limited', max_clicks: 2, rules: [rule({ device: 'desktop' }, 'desktop')] });
    await createLink(alice, { slug: 'fast-preview', preview: { title: 'Hello' }, rules: [rule({ device: 'desktop' }, 'desktop')] });
    for (let i = 0; i < 3; i++) await visit('/fast-limited');
    routeVisits.mockClear();
    expect((await visit('/fast-limited')).status).toBe(410);
    expect(routeVisits).toHaveBeenCalledTimes(1);

    await createLink(alice, {
      slug: 'fast-expired',
      expires_at: Date.now() + 3_600_000,
      expiration_url: 'https://example.com/over',
      rules: [rule({ device: 'desktop' }, 'desktop')],
    });
    expect((await visit('/fast-expired')).headers.location).toBe('https://example.com/desktop');
    // Two hours on, in this process (the server's too): the cached link has expired.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 7_200_000 });
    try {
      routeVisits.mockClear();
      expect((await visit('/fast-expired')).headers.location).toBe('https://example.com/over');
      expect(routeVisits).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }

    await visit('/fast-preview');
    routeVisits.mockClear();
    const preview = await visit('/fast-preview', { 'user-agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' });
    expect(preview.status).toBe(200);
    expect(preview.body).toContain('og:title');
    expect(routeVisits).toHaveBeenCalledTimes(1);
  });
});

describe('a visit with a valid unlock cookie', () => {
  test('is answered on the fast path as the route answers it, counted; no cookie or a wrong one gets the form from the route', async () => {
    const link = await createLink(alice, { slug: 'fast-unlocked', password: 'let me in', destination_url: 'https://example.com/inside' });
    const cookie = await unlock('fast-unlocked');
    const { route, fast } = await routeThenFast('/fast-unlocked', { cookie: `other=1; ${cookie}`, 'cf-ipcountry': 'NL' });
    expect(route.status).toBe(302);
    expect(route.headers.location).toBe('https://example.com/inside');
    expect(route.headers['set-cookie']).toBeUndefined();
    expect(seen(fast)).toEqual(seen(route));

    routeVisits.mockClear();
    expect((await visit('/fast-unlocked')).status).toBe(200);
    const [name, value = ''] = cookie.split('=');
    const forged = `${name}=${value.slice(0, -1)}${value.endsWith('A') ? 'B' : 'A'}`;
    expect((await visit('/fast-unlocked', { cookie: forged })).status).toBe(200);
    expect(routeVisits).toHaveBeenCalledTimes(2);

    const stats = await statsOf(link.id);
    // The POST and the two visits with the cookie; the forms are not clicks.
    expect(stats.totals.clicks).toBe(3);
    expect(stats.breakdowns.countries).toEqual(expect.arrayContaining([{ value: 'NL', clicks: 2 }]));
  });

  test('24 hours after the password was given, the cookie opens nothing on either path', async () => {
    await createLink(alice, { slug: 'fast-stale', password: 'let me in' });
    const cookie = await unlock('fast-stale');
    expect((await visit('/fast-stale', { cookie })).status).toBe(302);
    expect((await visit('/fast-stale', { cookie })).status).toBe(302);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 86_400_000 + 1_000 });
    try {
      uncache('fast-stale');
      expect((await visit('/fast-stale', { cookie })).status).toBe(200);
      expect((await visit('/fast-stale', { cookie })).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  test('with rules too: the rule that holds picks the destination', async () => {
    await createLink(alice, {
      slug: 'fast-unlocked-rules',
      password: 'let me in',
      destination_url: 'https://example.com/inside',
      rules: [rule({ device: 'mobile' }, 'inside-mobile')],
    });
    const cookie = await unlock('fast-unlocked-rules');
    const { route, fast } = await routeThenFast('/fast-unlocked-rules', { cookie, 'user-agent': IPHONE });
    expect(route.headers.location).toBe('https://example.com/inside-mobile');
    expect(seen(fast)).toEqual(seen(route));
  });
});

describe('a scan (?qr=1) of a smart link', () => {
  test('of a link with rules: counted as qr on both paths, and the destination never gets qr', async () => {
    const link = await createLink(alice, {
      slug: 'qr-rules',
      destination_url: 'https://example.com/land',
      rules: [rule({ query: { qr: '1' } }, 'by-qr')],
    });
    const { route, fast } = await routeThenFast('/qr-rules?qr=1');
    expect(route.headers.location).toBe('https://example.com/by-qr');
    expect(fast.headers.location).toBe('https://example.com/by-qr');
    expect((await visit('/qr-rules')).headers.location).toBe('https://example.com/land');
    const stats = await statsOf(link.id);
    expect(stats.breakdowns.triggers).toEqual([
      { value: 'qr', clicks: 2 },
      { value: 'link', clicks: 1 },
    ]);
  });

  test('of a password link: the form posted from the scanned URL, then visits with the cookie, counted as qr', async () => {
    const link = await createLink(alice, { slug: 'qr-locked', password: 'let me in', destination_url: 'https://example.com/inside' });
    const form = await visit('/qr-locked?qr=1');
    expect(form.status).toBe(200);
    const cookie = await unlock('qr-locked', '?qr=1');
    const { route, fast } = await routeThenFast('/qr-locked?qr=1', { cookie });
    expect(route.headers.location).toBe('https://example.com/inside');
    expect(fast.headers.location).toBe('https://example.com/inside');
    expect((await visit('/qr-locked', { cookie })).status).toBe(302);
    const stats = await statsOf(link.id);
    expect(stats.breakdowns.triggers).toEqual([
      { value: 'qr', clicks: 3 },
      { value: 'link', clicks: 1 },
    ]);
  });
});
