import { createClient, ShortlinksError } from '@shortlinks/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ApiResponse, callApi, countRows, createAccount, GENEROUS_RATE_LIMITS, startTestServer, type TestServer } from './harness.ts';

/** Small limits, so a test can reach them; a window far longer than the file, so none resets by itself. */
const LIMITS = {
  ...GENEROUS_RATE_LIMITS,
  apiPerPlan: { starter: 4, trial: 4, team: 7, unlimited: 50 },
  anonymous: 3,
  redirects: 6,
  windowMs: 10 * 60_000,
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimits: LIMITS });
});
afterAll(() => server.close());

const trpc = (key: string | undefined, procedure: string, input: unknown = {}) =>
  fetch(`${server.origin}/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });

function rateHeaders(headers: Headers) {
  return {
    limit: Number(headers.get('ratelimit-limit')),
    remaining: Number(headers.get('ratelimit-remaining')),
    reset: Number(headers.get('ratelimit-reset')),
  };
}

function expectRateLimited(response: ApiResponse, limit: number) {
  expect(response.status).toBe(429);
  expect(response.body).toEqual({ code: 'RATE_LIMITED', message: expect.any(String) });
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(LIMITS.windowMs / 1000);
  expect(rateHeaders(response.headers)).toEqual({ limit, remaining: 0, reset: retryAfter });
}

describe('API rate limits per key', () => {
  test('every REST answer carries RateLimit headers, counting down: successes, errors and 404s alike', async () => {
    const account = await createAccount(server, { plan: 'team' });
    const answers = [
      await account.call('GET', '/links'),
      await account.call('POST', '/tags', { name: '' }),
      await account.call('GET', '/links/lnk_nothing'),
      await account.call('GET', '/no/such/path'),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 422, 404, 404]);
    expect(answers.map((answer) => rateHeaders(answer.headers).remaining)).toEqual([6, 5, 4, 3]);
    for (const answer of answers) {
      expect(rateHeaders(answer.headers).limit).toBe(7);
      expect(rateHeaders(answer.headers).reset).toBeGreaterThan(0);
    }
  });

  test('a starter key gets its plan limit, then 429 RATE_LIMITED with Retry-After; the refused create saves nothing', async () => {
    const account = await createAccount(server, { plan: 'starter' });
    for (let i = 0; i < 4; i++) expect((await account.call('GET', '/tags')).status).toBe(200);
    const before = await countRows(server, 'link');
    const refused = await account.call('POST', '/links', { title: 'Too many', destination_url: 'https://example.com/too-many' });
    expectRateLimited(refused, 4);
    expect(await countRows(server, 'link')).toBe(before);
    expectRateLimited(await account.call('GET', '/tags'), 4);
  });

  test('limits are per key: a second key of the same account has its own budget', async () => {
    const account = await createAccount(server, { plan: 'starter' });
    for (let i = 0; i < 4; i++) await account.call('GET', '/tags');
    expectRateLimited(await account.call('GET', '/tags'), 4);
    const { secret } = await server.services.apiKeys.create(account.account.id);
    const other = await callApi(server, secret, 'GET', '/tags');
    expect(other.status).toBe(200);
    expect(rateHeaders(other.headers)).toMatchObject({ limit: 4, remaining: 3 });
  });

  test('REST and tRPC share one budget per key; tRPC answers 429 in its envelope and the client raises RATE_LIMITED', async () => {
    const account = await createAccount(server, { plan: 'starter' });
    expect((await account.call('GET', '/tags')).status).toBe(200);
    const viaTrpc = await trpc(account.key, 'tags.list');
    expect(viaTrpc.status).toBe(200);
    expect(rateHeaders(viaTrpc.headers)).toMatchObject({ limit: 4, remaining: 2 });
    await account.call('GET', '/tags');
    await trpc(account.key, 'tags.list');

    const refused = await trpc(account.key, 'tags.list');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: { data: unknown } }).error.data).toMatchObject({
      appCode: 'RATE_LIMITED',
      httpStatus: 429,
      field: null,
    });
    const client = createClient({ baseUrl: server.origin, apiKey: account.key });
    const failure = await client.tags.list().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ShortlinksError);
    expect(failure).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expectRateLimited(await account.call('GET', '/links'), 4);
  });

  test('the plan sets the limit: team 7, unlimited 50', async () => {
    const team = await createAccount(server, { plan: 'team' });
    const unlimited = await createAccount(server, { plan: 'unlimited' });
    expect(rateHeaders((await team.call('GET', '/tags')).headers).limit).toBe(7);
    expect(rateHeaders((await unlimited.call('GET', '/tags')).headers).limit).toBe(50);
  });

  test("an account's own limit, set by the operator, replaces its plan's at the next request; default goes back", async () => {
    const account = await createAccount(server, { plan: 'team' });
    expect(rateHeaders((await account.call('GET', '/tags')).headers).limit).toBe(7);
    await server.services.accounts.update(account.account.id, { api_rate_limit: 2 });
    expect(rateHeaders((await account.call('GET', '/tags')).headers)).toMatchObject({ limit: 2, remaining: 0 });
    expectRateLimited(await account.call('GET', '/tags'), 2);
    await server.services.accounts.update(account.account.id, { api_rate_limit: null });
    expect(rateHeaders((await account.call('GET', '/tags')).headers)).toMatchObject({ limit: 7 });
  });

  test('an account whose limit is none (0) is never refused, on REST and tRPC, and is sent no RateLimit headers', async () => {
    const account = await createAccount(server, { plan: 'starter', api_rate_limit: 0 });
    for (let i = 0; i < 10; i++) {
      const answer = await account.call('GET', '/tags');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('ratelimit-limit')).toBeNull();
    }
    expect((await trpc(account.key, 'tags.list')).status).toBe(200);
  });
});

describe('API rate limits the operator sets per plan (API_RATE_LIMIT_<PLAN>)', () => {
  test('a plan whose limit is 0 has none; the other plans keep theirs', async () => {
    const open = await startTestServer({ rateLimits: { ...LIMITS, apiPerPlan: { ...LIMITS.apiPerPlan, team: 0 } } });
    try {
      const team = await createAccount(open, { plan: 'team' });
      for (let i = 0; i < 10; i++) expect((await team.call('GET', '/tags')).status).toBe(200);
      const starter = await createAccount(open, { plan: 'starter' });
      for (let i = 0; i < 4; i++) expect((await starter.call('GET', '/tags')).status).toBe(200);
      expectRateLimited(await starter.call('GET', '/tags'), 4);
    } finally {
      await open.close();
    }
  });
});

test('the OpenAPI document declares the RateLimit headers on every response, and Retry-After on 429 and 503', async () => {
  const document = (await (await fetch(`${server.api}/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>>;
  };
  const responses = Object.values(document.paths).flatMap((operations) =>
    Object.values(operations).flatMap((operation) => Object.entries(operation.responses)),
  );
  expect(responses.length).toBeGreaterThan(20);
  for (const [status, response] of responses) {
    const expected = [
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      ...(status === '429' || status === '503' ? ['Retry-After'] : []),
    ];
    expect(Object.keys(response.headers ?? {}).sort(), status).toEqual(expected.sort());
  }
  // Every operation can be refused with 429.
  const operations = Object.values(document.paths).flatMap((byMethod) => Object.values(byMethod));
  expect(responses.filter(([status]) => status === '429')).toHaveLength(operations.length);
});

describe('API requests without a valid key', () => {
  test('are limited per client address, with headers on the 401s, then 429 before any key lookup', async () => {
    // The address budget is shared by every keyless request of this file; use it up here.
    const answers: ApiResponse[] = [];
    for (let i = 0; i < LIMITS.anonymous; i++) answers.push(await callApi(server, 'slk_not-a-key', 'GET', '/links'));
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401]);
    expect(answers.map((answer) => rateHeaders(answer.headers).remaining)).toEqual([2, 1, 0]);
    expectRateLimited(await callApi(server, undefined, 'POST', '/tags', { name: 'x' }), LIMITS.anonymous);
    const viaTrpc = await trpc(undefined, 'tags.list');
    expect(viaTrpc.status).toBe(429);
    // A valid key is counted on its own budget, not the address's.
    const account = await createAccount(server, { plan: 'starter' });
    expect((await account.call('GET', '/tags')).status).toBe(200);
  });
});

describe('redirects', () => {
  test('are limited per visitor address at their own rate, leaving the API budget alone', async () => {
    const account = await createAccount(server, { plan: 'unlimited' });
    const link = (await account.call('POST', '/links', { title: 'Busy', destination_url: 'https://example.com/busy' })).body;
    const visits: Response[] = [];
    for (let i = 0; i < LIMITS.redirects; i++) visits.push(await fetch(`${server.origin}/${link.slug}`, { redirect: 'manual' }));
    expect(visits.map((visit) => visit.status)).toEqual(Array(LIMITS.redirects).fill(302));
    // Redirects carry no RateLimit headers until refused (the hottest path stays lean).
    expect(visits.map((visit) => visit.headers.get('ratelimit-remaining'))).toEqual(Array(LIMITS.redirects).fill(null));

    const refused = await fetch(`${server.origin}/${link.slug}`, { redirect: 'manual' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('location')).toBeNull();
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit-limit')).toBe(String(LIMITS.redirects));
    expect(((await refused.json()) as { code: string }).code).toBe('RATE_LIMITED');

    const api = await account.call('GET', `/links/${link.id}`);
    expect(api.status).toBe(200);
    expect(rateHeaders(api.headers)).toMatchObject({ limit: 50, remaining: 48 });
  });
});

describe('behind a reverse proxy', () => {
  test('with TRUST_PROXY each X-Forwarded-For visitor has its own budget; without it the header changes nothing', async () => {
    const proxied = await startTestServer({ rateLimits: LIMITS, trustProxy: true });
    try {
      const account = await createAccount(proxied, { plan: 'unlimited' });
      const link = (await account.call('POST', '/links', { title: 'Proxied', destination_url: 'https://example.com/proxied' })).body;
      const visit = (server: TestServer, from: string) =>
        fetch(`${server.origin}/${link.slug}`, { redirect: 'manual', headers: { 'x-forwarded-for': from } });
      for (let i = 0; i < LIMITS.redirects; i++) expect((await visit(proxied, '203.0.113.1')).status).toBe(302);
      expect((await visit(proxied, '203.0.113.1')).status).toBe(429);
      expect((await visit(proxied, '203.0.113.2')).status).toBe(302);
      // Untrusted, a forged header does not buy a fresh budget: this file's server counts the socket address.
      expect((await visit(server, '198.51.100.7')).status).toBe(429);
    } finally {
      await proxied.close();
    }
  });

  test('a forged X-Forwarded-For is counted by its first 64 characters: long forgeries share one budget', async () => {
    const proxied = await startTestServer({ rateLimits: LIMITS, trustProxy: true });
    try {
      const forged = `forged-${'x'.repeat(57)}`; // 64 characters
      const keyless = (tail: string) => callApi(proxied, undefined, 'GET', '/tags', undefined, { 'x-forwarded-for': `${forged}${tail}` });
      const answers = [];
      for (let i = 0; i < LIMITS.anonymous; i++) answers.push((await keyless(`-${i}-${'y'.repeat(8_000)}`)).status);
      expect(answers).toEqual([401, 401, 401]);
      expect((await keyless('-another')).status).toBe(429);
      // A different address is its own client.
      expect((await callApi(proxied, undefined, 'GET', '/tags', undefined, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(401);
    } finally {
      await proxied.close();
    }
  });

  test('IPv6 visitors are counted by their /64: a neighbour in the same /64 shares the budget, another /64 does not', async () => {
    const proxied = await startTestServer({ rateLimits: LIMITS, trustProxy: true });
    try {
      const account = await createAccount(proxied, { plan: 'unlimited' });
      const link = (await account.call('POST', '/links', { title: 'Six', destination_url: 'https://example.com/six' })).body;
      const visit = (from: string) => fetch(`${proxied.origin}/${link.slug}`, { redirect: 'manual', headers: { 'x-forwarded-for': from } });
      for (let i = 0; i < LIMITS.redirects; i++) expect((await visit('2001:db8:1:2::1')).status).toBe(302);
      expect((await visit('2001:db8:1:2:ffff::9')).status).toBe(429);
      expect((await visit('2001:db8:1:3::1')).status).toBe(302);
    } finally {
      await proxied.close();
    }
  });
});

describe('the window', () => {
  test('a new window gives the full budget back', async () => {
    const quick = await startTestServer({ rateLimits: { ...LIMITS, windowMs: 1_000 } });
    try {
      const account = await createAccount(quick, { plan: 'starter' });
      for (let i = 0; i < 4; i++) await account.call('GET', '/tags');
      expect((await account.call('GET', '/tags')).status).toBe(429);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const again = await account.call('GET', '/tags');
      expect(again.status).toBe(200);
      expect(rateHeaders(again.headers)).toMatchObject({ limit: 4, remaining: 3 });
    } finally {
      await quick.close();
    }
  });
});
