import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BROWSER_USER_AGENT, createAccount, createLink, startTestServer, type TestAccount, type TestServer } from './harness.ts';

/**
 * Issue #30 on the redirect path, against the real server: password-protected links (the page,
 * right and wrong passwords, the cookie's scope and lifetime, both guessing limits, cross-site
 * posts), redirect rules (each condition and their order), previews for bots only, escaped.
 */

let server: TestServer;
let alice: TestAccount;

beforeAll(async () => {
  // Trusted proxy headers let a test speak as many visitors; the country comes from a header.
  server = await startTestServer({ trustProxy: true, countryHeader: 'cf-ipcountry' });
  alice = await createAccount(server);
});
afterAll(() => server.close());

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const IPAD =
  'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

let visitor = 0;
/** A new visitor address, as a trusted proxy names it. */
const newVisitor = () => `198.51.100.${++visitor}`;

function visit(path: string, headers: Record<string, string> = {}, method = 'GET') {
  return fetch(`${server.origin}/${path}`, {
    method,
    redirect: 'manual',
    headers: { 'user-agent': BROWSER_USER_AGENT, 'x-forwarded-for': '203.0.113.1', ...headers },
  });
}

function sendPassword(slug: string, password: string, headers: Record<string, string> = {}) {
  return fetch(`${server.origin}/${slug}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'user-agent': BROWSER_USER_AGENT,
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': '203.0.113.1',
      ...headers,
    },
    body: new URLSearchParams({ password }).toString(),
  });
}

async function clickCount(id: string): Promise<number> {
  await server.services.clicks.flush();
  const rows = await server.orm.em.fork().getConnection().execute(`select click_count from link where id = '${id}'`);
  return Number((rows[0] as { click_count: string }).click_count);
}

const cookieOf = (response: Response) => (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';

describe('password-protected links', () => {
  test('a visit gets the form: 200, no-store, noindex, a strict CSP, no script; no click', async () => {
    const link = await createLink(alice, { slug: 'pw-page', password: 'open sesame' });
    const response = await visit('pw-page');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-robots-tag')).toBe('noindex');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('script-src');
    expect(csp).not.toContain('unsafe-inline');
    const html = await response.text();
    expect(html).toContain('<form method="post">');
    expect(html).toContain('name="password"');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain('example.com');
    expect(await clickCount(link.id)).toBe(0);
  });

  test('a wrong password is 401 with the form again; the right one is 302, counted, with a cookie for that link only, 24 hours', async () => {
    const link = await createLink(alice, { slug: 'pw-right', password: 'correct horse', destination_url: 'https://example.com/secret' });
    const wrong = await sendPassword('pw-right', 'correct hors');
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('<form method="post">');
    expect(wrong.headers.get('set-cookie')).toBeNull();
    const right = await sendPassword('pw-right', 'correct horse');
    expect(right.status).toBe(302);
    expect(right.headers.get('location')).toBe('https://example.com/secret');
    const cookie = right.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^shortlinks_unlock=[^;]+; Path=\/pw-right; Max-Age=86400; HttpOnly; SameSite=Lax$/);
    expect(await clickCount(link.id)).toBe(1);
    // The cookie lets the same visitor through, counted.
    const again = await visit('pw-right', { cookie: cookieOf(right) });
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toBe('https://example.com/secret');
    expect(await clickCount(link.id)).toBe(2);
  });

  test('a cookie for link A does not open link B, tampered or stale cookies open nothing, and a new password locks it again', async () => {
    const a = await createLink(alice, { slug: 'pw-a', password: 'same-pass' });
    await createLink(alice, { slug: 'pw-b', password: 'same-pass' });
    const unlocked = cookieOf(await sendPassword('pw-a', 'same-pass'));
    expect((await visit('pw-a', { cookie: unlocked })).status).toBe(302);
    expect((await visit('pw-b', { cookie: unlocked })).status).toBe(200);
    const [name, value = ''] = unlocked.split('=');
    const [expires, signature = ''] = value.split('.');
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    for (const forged of [
      `${name}=${expires}.${flipped}`,
      `${name}=${Number(expires) + 86_400_000}.${signature}`,
      `${name}=${expires}`,
      `${name}=`,
      `${name}=9999999999999.${'A'.repeat(43)}`,
    ]) {
      expect((await visit('pw-a', { cookie: forged })).status).toBe(200);
    }
    // 24 hours on, the same cookie opens nothing.
    const hash = await server.orm.em.fork().getConnection().execute(`select password_hash from link where id = '${a.id}'`);
    const passwordHash = (hash[0] as { password_hash: string }).password_hash;
    const unlocks = server.services.smartRedirects.unlocks;
    expect(await unlocks.unlocks(value, a.id, passwordHash, Date.now())).toBe(true);
    expect(await unlocks.unlocks(value, a.id, passwordHash, Date.now() + 86_400_001)).toBe(false);
    // A changed password locks out everyone who had the old one.
    expect((await alice.call('PATCH', `/links/${a.id}`, { password: 'new-pass' })).status).toBe(200);
    expect((await visit('pw-a', { cookie: unlocked })).status).toBe(200);
  });

  test('the password page escapes nothing it was not given: a POST body is never reflected', async () => {
    await createLink(alice, { slug: 'pw-echo', password: 'pass-word' });
    const response = await sendPassword('pw-echo', '"><script>alert(1)</script>');
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain('<script>');
  });

  test('a form posted from another site is refused (403) before the password is read: no cookie, no guess counted', async () => {
    await createLink(alice, { slug: 'pw-csrf', password: 'cross-pass' });
    const me = newVisitor();
    const crossSite: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'null' },
    ];
    for (const headers of crossSite) {
      const response = await sendPassword('pw-csrf', 'cross-pass', { ...headers, 'x-forwarded-for': me });
      expect(response.status).toBe(403);
      expect(response.headers.get('set-cookie')).toBeNull();
    }
    const sameOrigin = await sendPassword('pw-csrf', 'cross-pass', {
      origin: server.origin,
      'sec-fetch-site': 'same-origin',
      'x-forwarded-for': me,
    });
    expect(sameOrigin.status).toBe(302);
  });

  test('more than 10 wrong passwords from one visitor in 10 minutes: 429 with Retry-After, even for the right one; others still may try', async () => {
    await createLink(alice, { slug: 'pw-guess', password: 'guess-me' });
    const guesser = newVisitor();
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await sendPassword('pw-guess', `wrong-${attempt}`, { 'x-forwarded-for': guesser })).status).toBe(401);
    }
    const refused = await sendPassword('pw-guess', 'guess-me', { 'x-forwarded-for': guesser });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(500);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(refused.headers.get('set-cookie')).toBeNull();
    expect((await sendPassword('pw-guess', 'guess-me', { 'x-forwarded-for': newVisitor() })).status).toBe(302);
  });

  test('the limit per link across visitors stops guessing spread over many addresses', async () => {
    await createLink(alice, { slug: 'pw-spread', password: 'spread-me' });
    for (let guesser = 0; guesser < 10; guesser++) {
      const address = newVisitor();
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, attempt) =>
          sendPassword('pw-spread', `wrong-${guesser}-${attempt}`, { 'x-forwarded-for': address }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(401));
    }
    const fresh = await sendPassword('pw-spread', 'spread-me', { 'x-forwarded-for': newVisitor() });
    expect(fresh.status).toBe(429);
    expect(Number(fresh.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 60_000);
});

describe('redirect rules', () => {
  const rule = (conditions: Record<string, unknown>, to: string) => ({ if: conditions, destination_url: `https://example.com/${to}` });
  const whereTo = async (slug: string, headers: Record<string, string> = {}, query = '') =>
    (await visit(`${slug}${query}`, headers)).headers.get('location');

  test('each condition', async () => {
    const now = Date.now();
    await createLink(alice, {
      slug: 'rules-each',
      destination_url: 'https://example.com/default',
      rules: [
        rule({ device: 'tablet' }, 'tablet'),
        rule({ device: 'mobile', os: 'ios' }, 'ios'),
        rule({ browser: 'firefox' }, 'firefox'),
        rule({ country: 'DE' }, 'germany'),
        rule({ language: 'fr' }, 'french'),
        rule({ query: { src: 'qr', v: '2' } }, 'query'),
        rule({ after: now + 3_600_000 }, 'later'),
        rule({ before: now - 3_600_000 }, 'earlier'),
        rule({ after: now - 3_600_000, before: now + 3_600_000 }, 'now'),
      ],
    });
    expect(await whereTo('rules-each', { 'user-agent': IPAD })).toBe('https://example.com/tablet');
    expect(await whereTo('rules-each', { 'user-agent': IPHONE })).toBe('https://example.com/ios');
    expect(await whereTo('rules-each', { 'user-agent': FIREFOX_WINDOWS })).toBe('https://example.com/firefox');
    expect(await whereTo('rules-each', { 'cf-ipcountry': 'de' })).toBe('https://example.com/germany');
    expect(await whereTo('rules-each', { 'accept-language': 'de-DE, fr-CA;q=0.5' })).toBe('https://example.com/french');
    // q=0 refuses the language.
    expect(await whereTo('rules-each', { 'accept-language': 'de, fr;q=0' })).toBe('https://example.com/now');
    expect(await whereTo('rules-each', {}, '?src=qr&v=2')).toBe('https://example.com/query');
    expect(await whereTo('rules-each', {}, '?src=qr')).toBe('https://example.com/now');
  });

  test('the first rule that holds wins; none holding gives the destination', async () => {
    await createLink(alice, {
      slug: 'rules-order',
      destination_url: 'https://example.com/default',
      rules: [rule({ device: 'mobile', country: 'FR' }, 'mobile-fr'), rule({ device: 'mobile' }, 'mobile'), rule({ country: 'FR' }, 'fr')],
    });
    expect(await whereTo('rules-order', { 'user-agent': IPHONE, 'cf-ipcountry': 'FR' })).toBe('https://example.com/mobile-fr');
    expect(await whereTo('rules-order', { 'user-agent': IPHONE, 'cf-ipcountry': 'DE' })).toBe('https://example.com/mobile');
    expect(await whereTo('rules-order', { 'cf-ipcountry': 'FR' })).toBe('https://example.com/fr');
    expect(await whereTo('rules-order', { 'cf-ipcountry': 'DE' })).toBe('https://example.com/default');
  });

  test('a rule-picked redirect counts a click, and a PATCH of the rules applies at once', async () => {
    const link = await createLink(alice, { slug: 'rules-click', rules: [rule({ country: 'IT' }, 'italy')] });
    expect(await whereTo('rules-click', { 'cf-ipcountry': 'IT' })).toBe('https://example.com/italy');
    expect(await clickCount(link.id)).toBe(1);
    await alice.call('PATCH', `/links/${link.id}`, { rules: [rule({ country: 'IT' }, 'italia')] });
    expect(await whereTo('rules-click', { 'cf-ipcountry': 'IT' })).toBe('https://example.com/italia');
  });
});

describe('social previews', () => {
  const BOTS = [
    'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
    'Twitterbot/1.0',
    'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
    'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
    'WhatsApp/2.23.20.0',
    'TelegramBot (like TwitterBot)',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0',
  ];

  test('bots get the preview page, people the redirect, and the markup is escaped', async () => {
    const link = await createLink(alice, {
      slug: 'preview-me',
      destination_url: 'https://example.com/real',
      preview: {
        title: '"><script>alert(1)</script>',
        description: "It's <b>new</b> & good",
        image_url: 'https://example.com/a.png?x=1&y="2"',
      },
    });
    for (const bot of BOTS) {
      const response = await visit('preview-me', { 'user-agent': bot });
      expect(response.status, bot).toBe(200);
      const html = await response.text();
      expect(html).toContain('<meta property="og:title" content="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">');
      expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
      expect(html).toContain('content="It&#39;s &lt;b&gt;new&lt;/b&gt; &amp; good"');
      expect(html).toContain('<meta property="og:image" content="https://example.com/a.png?x=1&amp;y=&quot;2&quot;">');
      expect(html).not.toMatch(/<script/i);
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    }
    const person = await visit('preview-me');
    expect(person.status).toBe(302);
    expect(person.headers.get('location')).toBe('https://example.com/real');
    expect(await clickCount(link.id)).toBe(1);
  });

  test('a password-protected link shows bots its preview but never its destination', async () => {
    await createLink(alice, {
      slug: 'preview-pw',
      password: 'pass-1234',
      destination_url: 'https://example.com/hidden',
      preview: { title: 'Hi' },
    });
    const response = await visit('preview-pw', { 'user-agent': 'Twitterbot/1.0' });
    expect(response.status).toBe(200);
    expect(await response.text()).not.toContain('hidden');
  });
});
