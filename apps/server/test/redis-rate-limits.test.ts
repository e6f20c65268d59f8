import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REDIS_READY_WAIT_MS } from '../src/shared-rate-counts.ts';
import {
  callApi,
  countRows,
  createAccount,
  createLink,
  GENEROUS_RATE_LIMITS,
  startTestServer,
  type TestAccount,
  type TestServer,
} from './harness.ts';
import { freePort, waitFor } from './processes.ts';
import { startRedis, type TestRedis } from './redis-server.ts';

/**
 * Two servers on one database and one real redis-server (REDIS_URL): a key's API budget is one
 * budget whichever instance answers, REST and tRPC together. Without Redis each instance counts
 * alone; while Redis is down each counts alone again, and no request fails for it.
 */
const LIMIT = 6;
const LIMITS = { ...GENEROUS_RATE_LIMITS, apiPerPlan: { ...GENEROUS_RATE_LIMITS.apiPerPlan, starter: LIMIT }, windowMs: 10 * 60_000 };

let redis: TestRedis;
let first: TestServer;
let second: TestServer;
const firstLog: string[] = [];
const secondLog: string[] = [];

beforeAll(async () => {
  redis = await startRedis();
  first = await startTestServer({
    rateLimits: LIMITS,
    redisUrl: redis.url,
    logStream: { write: (line) => void firstLog.push(line) },
  });
  second = await startTestServer({
    databaseUrl: first.databaseUrl,
    rateLimits: LIMITS,
    redisUrl: redis.url,
    logStream: { write: (line) => void secondLog.push(line) },
  });
}, 300_000);
afterAll(async () => {
  await first?.close();
  await second?.close();
  await redis?.stop();
});

/** One API call through REST or tRPC on one instance: its status and `RateLimit-Remaining`. */
async function call(server: TestServer, account: TestAccount, transport: 'rest' | 'trpc') {
  const response =
    transport === 'rest'
      ? await fetch(`${server.api}/tags`, { headers: { authorization: `Bearer ${account.key}` } })
      : await fetch(`${server.origin}/trpc/tags.list?input=${encodeURIComponent('{}')}`, {
          headers: { authorization: `Bearer ${account.key}` },
        });
  await response.arrayBuffer();
  return { status: response.status, remaining: Number(response.headers.get('ratelimit-remaining')) };
}

/** Waits until the second instance sees what the first counted for a fresh key: both count in Redis. */
async function untilCountedTogether(what: string) {
  await waitFor(
    async () => {
      const probe = await createAccount(first, { plan: 'starter' });
      await call(first, probe, 'rest');
      return (await call(second, probe, 'rest')).remaining === LIMIT - 2;
    },
    15_000,
    what,
  );
}

type Turn = [TestServer, 'rest' | 'trpc'];
/** Both instances, both transports, in turn. */
const rotation = (): Turn[] => [
  [first, 'rest'],
  [second, 'trpc'],
  [first, 'trpc'],
  [second, 'rest'],
];

describe('with REDIS_URL, every instance counts a key against one budget', () => {
  test('the budget counts down across both instances and both transports; the next call is refused by either', async () => {
    const account = await createAccount(first, { plan: 'starter' });
    const answers = [];
    for (let i = 0; i < LIMIT; i++) {
      const [server, transport] = rotation()[i % 4] as Turn;
      answers.push(await call(server, account, transport));
    }
    expect(answers).toEqual(Array.from({ length: LIMIT }, (_, i) => ({ status: 200, remaining: LIMIT - 1 - i })));
    for (const [server, transport] of rotation()) expect((await call(server, account, transport)).status).toBe(429);
  });

  test('keys are counted apart: a second key of the same account still has its whole budget on both', async () => {
    const account = await createAccount(first, { plan: 'starter' });
    for (let i = 0; i < LIMIT; i++) await call(i % 2 ? first : second, account, 'rest');
    expect((await call(second, account, 'rest')).status).toBe(429);
    const { secret } = await first.services.apiKeys.create(account.account.id);
    const other = await callApi(second, secret, 'GET', '/tags');
    expect(other.status).toBe(200);
    expect(Number(other.headers.get('ratelimit-remaining'))).toBe(LIMIT - 1);
  });
});

describe('with REDIS_URL, a request spends its weight in Redis', () => {
  const bulk = (server: TestServer, account: TestAccount, items: number) =>
    callApi(server, account.key, 'POST', '/links/bulk', {
      links: Array.from({ length: items }, (_, i) => ({ title: 'Weighed', destination_url: `https://example.com/weighed/${i}` })),
    });

  test("a bulk call's weight on one instance is seen by the other; one that does not fit is refused there and does nothing", async () => {
    const account = await createAccount(first, { plan: 'starter' });
    // 30 items: 1 + 3 = 4 of the 6.
    const created = await bulk(first, account, 30);
    expect(created.status).toBe(201);
    expect(Number(created.headers.get('ratelimit-remaining'))).toBe(LIMIT - 4);
    expect(await call(second, account, 'trpc')).toEqual({ status: 200, remaining: LIMIT - 5 });
    // 20 items weigh 3: 1 is left.
    const refused = await bulk(second, account, 20);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await countRows(first, 'link', `account_id = '${account.account.id}'`)).toBe(30);
  });
});

describe('a protected link\'s guessing limit (docs/redirects.md, "Passwords")', () => {
  /** A wrong password sent to the link's form on one instance, from one visitor. */
  async function guess(server: TestServer, slug: string) {
    const response = await fetch(`${server.origin}/${slug}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0' },
      body: new URLSearchParams({ password: 'not the password' }).toString(),
      redirect: 'manual',
    });
    await response.arrayBuffer();
    return response.status;
  }

  test('wrong passwords sent to either instance count together: the eleventh is refused wherever it goes', async () => {
    const account = await createAccount(first);
    await createLink(account, { slug: 'guessed-across', password: 'the real one' });
    // 10 wrong answers spread over both instances are all 401; the next is 429 on both.
    for (let i = 0; i < 10; i++) expect(await guess(i % 2 ? second : first, 'guessed-across')).toBe(401);
    expect(await guess(first, 'guessed-across')).toBe(429);
    expect(await guess(second, 'guessed-across')).toBe(429);
  });
});

describe('start-up', () => {
  test('an instance just started counts its very first request in Redis', async () => {
    const account = await createAccount(first, { plan: 'starter' });
    const third = await startTestServer({ databaseUrl: first.databaseUrl, rateLimits: LIMITS, redisUrl: redis.url });
    try {
      expect(await call(third, account, 'rest')).toEqual({ status: 200, remaining: LIMIT - 1 });
      expect(await call(first, account, 'rest')).toEqual({ status: 200, remaining: LIMIT - 2 });
    } finally {
      await third.close();
    }
  });

  test('an instance whose Redis does not answer waits REDIS_READY_WAIT_MS for it, then starts anyway and counts alone', async () => {
    const log: string[] = [];
    const nowhere = `redis://127.0.0.1:${await freePort()}`;
    const started = performance.now();
    const lonely = await startTestServer({
      databaseUrl: first.databaseUrl,
      rateLimits: LIMITS,
      redisUrl: nowhere,
      logStream: { write: (line) => void log.push(line) },
    });
    try {
      expect(performance.now() - started).toBeGreaterThanOrEqual(REDIS_READY_WAIT_MS);
      // Bounded, with room for a loaded machine building the server.
      expect(performance.now() - started).toBeLessThan(REDIS_READY_WAIT_MS + 15_000);
      expect(log.join('')).toContain('Redis did not answer at start');
      const account = await createAccount(first, { plan: 'starter' });
      for (let i = 0; i < LIMIT; i++) expect(await call(lonely, account, 'rest')).toEqual({ status: 200, remaining: LIMIT - 1 - i });
      expect((await call(lonely, account, 'trpc')).status).toBe(429);
    } finally {
      await lonely.close();
    }
  }, 30_000);
});

test('without REDIS_URL each instance counts alone: two instances allow a key twice its budget', async () => {
  const alone = [
    await startTestServer({ databaseUrl: first.databaseUrl, rateLimits: LIMITS }),
    await startTestServer({ databaseUrl: first.databaseUrl, rateLimits: LIMITS }),
  ];
  try {
    const account = await createAccount(first, { plan: 'starter' });
    for (const server of alone) {
      for (let i = 0; i < LIMIT; i++) expect(await call(server, account, 'rest')).toEqual({ status: 200, remaining: LIMIT - 1 - i });
      expect((await call(server, account, 'rest')).status).toBe(429);
    }
  } finally {
    for (const server of alone) await server.close();
  }
});

describe('when Redis goes away', () => {
  test('the API keeps answering, counting per instance and saying so once; once Redis is back, counting is shared again', async () => {
    await redis.kill();
    const account = await createAccount(first, { plan: 'starter' });
    // Each instance now holds the key to the budget on its own: never a 500, never a wait.
    for (const server of [first, second]) {
      for (let i = 0; i < LIMIT; i++) {
        const started = Date.now();
        expect(await call(server, account, i % 2 ? 'trpc' : 'rest')).toEqual({ status: 200, remaining: LIMIT - 1 - i });
        expect(Date.now() - started).toBeLessThan(1_000);
      }
      expect((await call(server, account, 'rest')).status).toBe(429);
    }
    const warned = (log: string[]) => log.filter((line) => line.includes('counting in this process only')).length;
    expect([warned(firstLog), warned(secondLog)]).toEqual([1, 1]);

    await redis.restart();
    // ioredis reconnects by itself (its back-off is at most 2 s); a fresh key shows when the
    // second instance sees what the first counted.
    await untilCountedTogether('both instances counting in Redis again');
    const after = await createAccount(first, { plan: 'starter' });
    for (let i = 0; i < LIMIT; i++) expect((await call(i % 2 ? first : second, after, 'trpc')).status).toBe(200);
    expect((await call(first, after, 'rest')).status).toBe(429);
    expect((await call(second, after, 'trpc')).status).toBe(429);
    expect([warned(firstLog), warned(secondLog)]).toEqual([1, 1]);
  }, 60_000);

  test('a Redis that stops answering costs a request at most one command timeout, and counting goes local meanwhile', async () => {
    const warned = () => firstLog.filter((line) => line.includes('counting in this process only')).length;
    const warnedBefore = warned();
    redis.freeze();
    try {
      const account = await createAccount(first, { plan: 'starter' });
      const took: number[] = [];
      const timed = async () => {
        const started = performance.now();
        const answer = await call(first, account, 'rest');
        took.push(performance.now() - started);
        return answer;
      };
      for (let i = 0; i < LIMIT; i++) expect(await timed()).toEqual({ status: 200, remaining: LIMIT - 1 - i });
      expect((await timed()).status).toBe(429);
      // The first waits out the command timeout (250 ms); those after it do not ask Redis for a
      // second, so at most one more waits (were the calls slow enough to span a second). Were
      // Redis asked every time, all seven would wait.
      expect(took.filter((ms) => ms >= 240).length).toBeLessThanOrEqual(2);
      expect(warned()).toBe(warnedBefore + 1);
    } finally {
      redis.thaw();
    }
    await untilCountedTogether('counting in Redis again after the freeze');
  }, 60_000);
});
