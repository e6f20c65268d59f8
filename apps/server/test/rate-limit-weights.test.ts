import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { countRows, createAccount, GENEROUS_RATE_LIMITS, startTestServer, type TestAccount, type TestServer } from './harness.ts';

/**
 * Limits measure work, not envelopes (issue #31): every call of a tRPC batch counts, and a bulk
 * call counts 1 + ceil(items / 10), the same on REST and tRPC; a request heavier than what is
 * left is refused whole. A budget of 40, and a window far longer than the file.
 */
const BUDGET = 40;
const LIMITS = { ...GENEROUS_RATE_LIMITS, apiPerPlan: { ...GENEROUS_RATE_LIMITS.apiPerPlan, starter: BUDGET }, windowMs: 10 * 60_000 };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimits: LIMITS });
});
afterAll(() => server.close());

let made = 0;
/** Short link bodies, so that ten bulk calls of 100 fit a batch's usual body limit. */
const bodies = (count: number) => Array.from({ length: count }, () => ({ title: 'L', destination_url: `https://example.com/${++made}` }));
const liveLinks = (account: TestAccount) => countRows(server, 'link', `account_id = '${account.account.id}' and deleted_at is null`);
const remaining = (headers: Headers) => Number(headers.get('ratelimit-remaining'));

/** A tRPC request: `paths` comma-separated, batched when `inputs` is a list (POST for mutations, GET for queries). */
async function trpc(account: TestAccount, paths: string, inputs: unknown, method: 'GET' | 'POST' = 'POST') {
  const batch = Array.isArray(inputs);
  const input = batch ? Object.fromEntries(inputs.map((value, index) => [index, value])) : inputs;
  const query = `${batch ? 'batch=1&' : ''}${method === 'GET' ? `input=${encodeURIComponent(JSON.stringify(input))}` : ''}`;
  const response = await fetch(`${server.origin}/trpc/${paths}${query ? `?${query}` : ''}`, {
    method,
    headers: { authorization: `Bearer ${account.key}`, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
    ...(method === 'POST' ? { body: JSON.stringify(input) } : {}),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
}

const repeat = (path: string, times: number) => Array.from({ length: times }, () => path).join(',');

describe('what a request spends of its rate limit', () => {
  test('a REST bulk create of 100 links spends 11, and RateLimit-Remaining says so', async () => {
    const account = await createAccount(server, { plan: 'starter' });
    const created = await account.call('POST', '/links/bulk', { links: bodies(100) });
    expect(created.status).toBe(201);
    expect(remaining(created.headers)).toBe(BUDGET - 11);
    expect(Number(created.headers.get('ratelimit-limit'))).toBe(BUDGET);
  });

  test('every call of a tRPC batch counts: ten reads spend 10', async () => {
    const account = await createAccount(server, { plan: 'starter' });
    const answer = await trpc(
      account,
      repeat('tags.list', 10),
      Array.from({ length: 10 }, () => ({})),
      'GET',
    );
    expect(answer.status).toBe(200);
    expect(remaining(answer.headers)).toBe(BUDGET - 10);
  });

  test('a tRPC batch of bulk calls spends what the same calls spend over REST', async () => {
    const overRest = await createAccount(server, { plan: 'starter' });
    const overTrpc = await createAccount(server, { plan: 'starter' });
    // Three bulk creates of 25 (4 each), then an update of 25 and a delete of 12 (4 and 3).
    for (let i = 0; i < 3; i++) expect((await overRest.call('POST', '/links/bulk', { links: bodies(25) })).status).toBe(201);
    const restIds = ((await overRest.call('GET', '/links?per_page=25')).body.links as { id: string }[]).map((link) => link.id);
    expect((await overRest.call('PATCH', '/links/bulk', { ids: restIds, changes: { title: 'Moved' } })).status).toBe(200);
    const restDeleted = await overRest.call('DELETE', `/links/bulk?ids=${restIds.slice(0, 12).join(',')}`);
    expect(restDeleted.status).toBe(200);
    // 12 + 4 + 3, and the list read: 1.
    expect(remaining(restDeleted.headers)).toBe(BUDGET - 20);

    const created = await trpc(
      overTrpc,
      repeat('links.bulkCreate', 3),
      [0, 1, 2].map(() => ({ links: bodies(25) })),
    );
    expect(created.status).toBe(200);
    expect(remaining(created.headers)).toBe(BUDGET - 12);
    const listed = await trpc(overTrpc, 'links.list', { per_page: 37 }, 'GET');
    const ids = (listed.body as { result: { data: { links: { id: string }[] } } }).result.data.links.map((link) => link.id);
    // A batch's calls run at once: the update and the delete take different links, or the
    // delete could take some before the update reaches them (a 207).
    const changed = await trpc(overTrpc, 'links.bulkUpdate,links.bulkDelete', [
      { ids: ids.slice(0, 25), changes: { title: 'Moved' } },
      { ids: ids.slice(25, 37) },
    ]);
    expect(changed.status).toBe(200);
    expect(remaining(changed.headers)).toBe(BUDGET - 20);
    expect(await liveLinks(overTrpc)).toBe(await liveLinks(overRest));
  });

  test('a single tRPC bulk call weighs as its REST twin', async () => {
    const account = await createAccount(server, { plan: 'starter' });
    const created = await trpc(account, 'links.bulkCreate', { links: bodies(100) });
    expect(created.status).toBe(201);
    expect(remaining(created.headers)).toBe(BUDGET - 11);
  });
});

describe('a request heavier than what is left', () => {
  test('REST: 429 RATE_LIMITED with Retry-After, nothing done; lighter requests still fit', async () => {
    const account = await createAccount(server, { plan: 'starter' });
    for (let i = 0; i < 3; i++) expect((await account.call('POST', '/links/bulk', { links: bodies(100) })).status).toBe(201);
    // 33 spent, 7 left: a bulk call of 100 needs 11.
    const refused = await account.call('POST', '/links/bulk', { links: bodies(100) });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/^Too many requests for this API key; retry in \d+ seconds$/),
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(LIMITS.windowMs / 1000);
    expect(Number(refused.headers.get('ratelimit-reset'))).toBe(retryAfter);
    // The refused request counted 1 on arrival, as any refused request does, and nothing more.
    expect(remaining(refused.headers)).toBe(6);
    expect(await liveLinks(account)).toBe(300);

    // 5 left after the list: a delete of 50 (6) does not fit, one of 10 (2) does.
    const ids = (await account.call('GET', '/links?per_page=50')).body.links.map((link: { id: string }) => link.id);
    expect((await account.call('DELETE', `/links/bulk?ids=${ids.slice(0, 50).join(',')}`)).status).toBe(429);
    expect(await liveLinks(account)).toBe(300);
    const small = await account.call('DELETE', `/links/bulk?ids=${ids.slice(0, 10).join(',')}`);
    expect(small.status).toBe(200);
    expect(remaining(small.headers)).toBe(2);
    expect(await liveLinks(account)).toBe(290);
  });

  test('tRPC: a batch that does not fit is refused whole, in its envelope, and none of its calls runs', async () => {
    const account = await createAccount(server, { plan: 'starter' });
    const first = await trpc(
      account,
      repeat('links.bulkCreate', 3),
      [0, 1, 2].map(() => ({ links: bodies(100) })),
    );
    expect(first.status).toBe(200);
    expect(remaining(first.headers)).toBe(BUDGET - 33);
    const refused = await trpc(
      account,
      repeat('links.bulkCreate', 2),
      [0, 1].map(() => ({ links: bodies(10) })),
    );
    // 2 × 2 fits in 7; ten calls of 1 link do not (20).
    expect(refused.status).toBe(200);
    const over = await trpc(
      account,
      repeat('links.bulkCreate', 10),
      Array.from({ length: 10 }, () => ({ links: bodies(1) })),
    );
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((over.body as { error: { data: unknown } }).error.data).toMatchObject({ appCode: 'RATE_LIMITED', httpStatus: 429 });
    expect(await liveLinks(account)).toBe(320);
  });
});
