import { describeAgent } from '@shortlinks/api/redirects';
import type { TestServer } from './test-server.ts';

/**
 * A month of believable clicks for the screenshots, recorded through the server's own click
 * recorder (the redirect's write path) with times in the past: weekdays busier than weekends,
 * days busier than nights, a launch-day spike, and the referrers, countries and browsers of a
 * product's audience. Seeded, so every run draws the same pictures.
 */
export interface SampleLink {
  id: string;
  /** Clicks on an ordinary weekday. */
  perDay: number;
  /** Days ago of a spike (launch, newsletter), and how many times an ordinary day it is. */
  spike?: { daysAgo: number; times: number };
}

const DAY = 86_400_000;
const HOUR = 3_600_000;

const REFERRERS: [string | null, number][] = [
  [null, 30],
  ['news.ycombinator.com', 22],
  ['t.co', 14],
  ['www.linkedin.com', 10],
  ['www.google.com', 9],
  ['github.com', 7],
  ['www.reddit.com', 5],
  ['newsletter.acme.example', 3],
];
const COUNTRIES: [string | null, number][] = [
  ['US', 34],
  ['DE', 14],
  ['GB', 10],
  ['FR', 7],
  ['IN', 7],
  ['CA', 6],
  ['NL', 5],
  ['BR', 4],
  ['JP', 3],
  [null, 4],
];
const AGENTS: [string, number][] = [
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 22],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 18],
  [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
    20,
  ],
  ['Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36', 14],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15', 8],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0', 7],
  ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 7],
  ['Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1', 4],
];
/** Share of a day's clicks in each UTC hour: quiet nights, busy working hours on both sides of the Atlantic. */
const HOURS = [2, 1, 1, 1, 1, 2, 3, 5, 7, 8, 8, 7, 7, 8, 9, 9, 8, 7, 6, 5, 4, 4, 3, 2];

/** mulberry32: a small seeded generator, so the screenshots are the same on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function weighted<T>(random: () => number, choices: [T, number][]): T {
  const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
  let left = random() * total;
  for (const [value, weight] of choices) {
    left -= weight;
    if (left < 0) return value;
  }
  return (choices[choices.length - 1] as [T, number])[0];
}

/** Records `days` days of clicks ending now for each link, then writes them. */
export async function recordSampleClicks(server: TestServer, links: SampleLink[], days = 30): Promise<number> {
  const random = seeded(20_260_522);
  const now = Date.now();
  const today = Math.floor(now / DAY) * DAY;
  let recorded = 0;
  for (let ago = days - 1; ago >= 0; ago--) {
    const day = today - ago * DAY;
    const weekday = new Date(day).getUTCDay();
    const weekFactor = weekday === 0 || weekday === 6 ? 0.45 : 1;
    // A slow climb over the month: the links are getting known.
    const trend = 0.7 + (0.5 * (days - ago)) / days;
    for (const link of links) {
      const spike = link.spike?.daysAgo === ago ? link.spike.times : link.spike?.daysAgo === ago + 1 ? link.spike.times / 3 : 1;
      // A launch is news on any day of the week.
      const clicks = Math.round(link.perDay * (spike > 1 ? 1 : weekFactor) * trend * spike * (0.8 + random() * 0.4));
      // The day's visitors: drawing clicks from a crowd a little larger than the clicks makes
      // about two in three clicks a new visitor, the rest someone coming back.
      const crowd = Math.max(1, Math.round(clicks * 1.2));
      for (let i = 0; i < clicks; i++) {
        const at =
          day +
          weighted(
            random,
            HOURS.map((weight, hour) => [hour, weight] as [number, number]),
          ) *
            HOUR +
          Math.floor(random() * HOUR);
        if (at >= now) continue;
        const person = (days - ago) * 100_000 + Math.floor(random() * crowd);
        const own = seeded(person);
        const userAgent = weighted(own, AGENTS);
        server.services.clicks.record({
          linkId: link.id,
          at,
          referrerHost: weighted(random, REFERRERS),
          agent: describeAgent(userAgent),
          country: weighted(own, COUNTRIES),
          clientIp: `10.${(person >> 16) & 255}.${(person >> 8) & 255}.${person & 255}`,
          userAgent,
        });
        recorded++;
      }
    }
  }
  await server.services.clicks.flush();
  return recorded;
}
