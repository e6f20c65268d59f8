import { connect } from 'node:net';
import { describeAgent } from '@shortlinks/api/redirects';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAccount, createLink, getLink, startTestServer, type TestAccount, type TestServer } from './harness.ts';

/**
 * Property-based fuzzing of the redirect path (docs/security.md, "Click counting"): visits with
 * random `Referer`, `User-Agent`, `X-Forwarded-For` (trusted) and country header values up to
 * 16 KiB, sent as raw bytes over real HTTP, then a flush. Whatever was sent, the flush succeeds,
 * drops nothing, and `click_count` and the statistics count exactly the visits that were
 * redirected with a non-bot User-Agent. Run counts are bounded so the file takes seconds.
 */

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
/** Node refuses requests whose header section exceeds 16 KiB (431, not a visit); the values share what is left of it. */
const VALUE_BUDGET = 15_900;

let server: TestServer;
let alice: TestAccount;
let bob: TestAccount;
let links: { id: string; slug: string; owner: TestAccount }[];

beforeAll(async () => {
  server = await startTestServer({ countryHeader: 'cf-ipcountry', trustProxy: true });
  alice = await createAccount(server);
  bob = await createAccount(server);
  links = [];
  for (const owner of [alice, alice, bob]) links.push({ ...(await createLink(owner)), owner });
});
afterAll(() => server.close());

const range = (from: number, to: number) => String.fromCharCode(...Array.from({ length: to - from + 1 }, (_, i) => from + i));
const HOST = 'abcdefghijklmnopqrstuvwxyz0123456789.-';
const PRINTABLE = range(0x20, 0x7e);
/** What a browser may send besides ASCII: Node reads header bytes as latin1. */
const LATIN1 = `${PRINTABLE}\t${range(0xa0, 0xff)}`;
/** Every byte but CR and LF, control characters included (Node answers 400 to those: not a visit). */
const RAW = range(0x00, 0xff).replace(/[\r\n]/g, '');

/**
 * Up to `max` characters of `alphabet`, spread by a generator seeded from the run: long,
 * incompressible (PostgreSQL compresses repeated text below its index limit, not this), cheap to
 * make, and shrinkable by length.
 */
const noise = (alphabet: string, max: number) =>
  fc.tuple(fc.integer({ min: 0, max }), fc.integer()).map(([length, seed]) => {
    let state = seed >>> 0;
    let text = '';
    for (let i = 0; i < length; i++) {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
      text += alphabet[(state >>> 8) % alphabet.length];
    }
    return text;
  });
const anyText = (max: number) => fc.oneof({ arbitrary: noise(LATIN1, max), weight: 5 }, { arbitrary: noise(RAW, max), weight: 1 });

const referer = fc.oneof(
  fc.constant('https://news.example.org/item?id=1'),
  fc
    .tuple(fc.constantFrom('http://', 'https://', 'android-app://', 'x://'), noise(HOST, 16_384), anyText(64), anyText(256))
    .map(([scheme, host, more, path]) => `${scheme}${host}${more}/${path}`),
  anyText(16_384),
);
const userAgent = fc.oneof(
  fc.constantFrom(BROWSER, GOOGLEBOT, ''),
  anyText(1_000).map((tail) => `${BROWSER} ${tail}`),
  fc
    .tuple(noise(HOST, 16_384), fc.constantFrom('/1.0 (Windows NT 10.0)', '/2 (iPhone; CPU iPhone OS 18_0)', ' (X11; Linux)'))
    .map(([token, rest]) => token + rest),
  anyText(16_384),
);
const forwardedFor = fc.oneof(
  fc.ipV4(),
  fc.ipV6(),
  fc.array(fc.oneof(fc.ipV4(), fc.ipV6()), { minLength: 2, maxLength: 5 }).map((hops) => hops.join(', ')),
  anyText(16_384),
);
const country = fc.oneof(fc.constantFrom('DE', 'fr', 'XX', 'T1', ''), noise(PRINTABLE, 3), anyText(16_384));

/** One visit's headers, in a random order, within the header budget (the first ones may take it all). */
const visitHeaders = fc
  .tuple(
    fc.option(referer, { nil: undefined }),
    fc.option(userAgent, { nil: undefined }),
    fc.option(forwardedFor, { nil: undefined }),
    fc.option(country, { nil: undefined }),
  )
  .chain(([ref, ua, xff, cc]) => {
    const present: [string, string][] = [];
    for (const [name, value] of [
      ['referer', ref],
      ['user-agent', ua],
      ['x-forwarded-for', xff],
      ['cf-ipcountry', cc],
    ] as const) {
      if (value !== undefined) present.push([name, value]);
    }
    return fc.shuffledSubarray(present, { minLength: present.length, maxLength: present.length });
  })
  .map((headers) => {
    let budget = VALUE_BUDGET;
    return headers.map(([name, value]): [string, string] => {
      const kept = value.slice(0, budget);
      budget -= kept.length;
      return [name, kept];
    });
  });

const visit = fc.record({ link: fc.integer({ min: 0, max: 2 }), headers: visitHeaders });

/** GET /{slug} with header values sent as raw latin1 bytes (fetch refuses many of them); the status, or 0 without one. */
function rawVisit(slug: string, headers: [string, string][]): Promise<number> {
  const { port } = new URL(server.origin);
  const head = [
    `GET /${slug} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    'Connection: close',
    ...headers.map(([name, value]) => `${name}: ${value}`),
  ];
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
    // Not end(): a client that half-closes before the answer gets none from Node when the slug is not cached yet.
    socket.write(Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'));
  });
}

/** Whether the server counts a redirected visit: not a bot, as it reads the User-Agent (latin1, without surrounding blanks). */
function countable(headers: [string, string][]): boolean {
  const sent = headers.find(([name]) => name === 'user-agent')?.[1];
  return describeAgent(sent?.replace(/^[\t ]+|[\t ]+$/g, '')).device !== 'bot';
}

const totalClicks = async (account: TestAccount, path: string) => {
  const response = await account.call('GET', path);
  expect(response.status).toBe(200);
  return response.body.totals.clicks as number;
};

/** What each link and account has counted so far: click_count and the statistics' totals. */
async function counts(): Promise<number[]> {
  const numbers: number[] = [];
  for (const target of links) {
    numbers.push((await getLink(target.owner, target.id)).click_count, await totalClicks(target.owner, `/links/${target.id}/stats`));
  }
  numbers.push(await totalClicks(alice, '/stats'), await totalClicks(bob, '/stats'));
  return numbers;
}

describe('random visitor headers on the redirect path', () => {
  test('the flush succeeds and counts exactly the redirected, non-bot visits, in click_count and in the statistics', async () => {
    let answered302 = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(visit, { minLength: 1, maxLength: 8 }), async (visits) => {
        // Each run counts from where the previous one (or a failed one, while shrinking) left off.
        await server.services.clicks.flush();
        const before = await counts();
        const dropped = server.services.clicks.dropped;
        const expected = [0, 0, 0];
        for (const { link, headers } of visits) {
          const target = links[link];
          if (!target) throw new Error('no such link');
          const status = await rawVisit(target.slug, headers);
          const where = `${headers.map(([name, value]) => `${name}: ${value.length} chars`).join(', ')} → ${status}`;
          // A visit is redirected, or (a control character in a header) refused as malformed; never a 5xx.
          expect([302, 400], where).toContain(status);
          if (status === 302) answered302++;
          if (status === 302 && countable(headers)) expected[link] = (expected[link] ?? 0) + 1;
        }

        await server.services.clicks.flush();
        expect(server.services.clicks.dropped).toEqual(dropped);
        expect(server.services.clicks.pending).toBe(0);
        const [a = 0, b = 0, c = 0] = expected;
        // click_count and link statistics of each link, then the accounts' statistics.
        const added = [a, a, b, b, c, c, a + b, c];
        expect((await counts()).map((now, i) => now - (before[i] ?? 0))).toEqual(added);
      }),
      { numRuns: 25 },
    );
    // The fuzz did reach the counting path, not only the parser's refusals, and nothing was ever dropped.
    expect(answered302).toBeGreaterThan(50);
    expect(server.services.clicks.dropped).toEqual({ refusedGroups: 0, refusedClicks: 0, overflowClicks: 0 });

    // What the statistics keep of those values is bounded (docs/security.md).
    for (const target of links) {
      const { breakdowns } = (await target.owner.call('GET', `/links/${target.id}/stats`)).body;
      const longest = (values: { value: string | null }[]) => Math.max(0, ...values.map(({ value }) => value?.length ?? 0));
      expect(longest(breakdowns.referrers)).toBeLessThanOrEqual(253);
      expect(longest(breakdowns.browsers)).toBeLessThanOrEqual(64);
      expect(longest(breakdowns.operating_systems)).toBeLessThanOrEqual(64);
      for (const { value } of breakdowns.countries) expect(value === null || /^[A-Z]{2}$/.test(value)).toBe(true);
    }

    // And an ordinary visit afterwards is counted.
    const [first] = links;
    if (!first) throw new Error('no link');
    const before = (await getLink(first.owner, first.id)).click_count;
    expect(await rawVisit(first.slug, [['user-agent', BROWSER]])).toBe(302);
    await server.services.clicks.flush();
    expect((await getLink(first.owner, first.id)).click_count).toBe(before + 1);
  });
});
