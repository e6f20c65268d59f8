import { type FailurePolicy, type ReputationProvider, remoteReputation } from '@shortlinks/api/destinations';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FakeReputationService } from './fake-reputation.ts';
import { type ApiResponse, countRows, createAccount, inDays, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { freePort, runCli } from './processes.ts';

let fake: FakeReputationService;
const servers: TestServer[] = [];
beforeAll(async () => {
  fake = await new FakeReputationService().start();
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await fake.stop();
});

let counter = 0;
/** A destination no other test asks about, so caches and behaviours do not leak between tests. */
const fresh = (what: string) => `https://${what}-${++counter}.example.com/page`;

interface Setup {
  server: TestServer;
  account: TestAccount;
  warnings: string[];
}

async function setup(
  provider: ReputationProvider,
  policy: FailurePolicy,
  options: { baseUrl?: string; timeoutMs?: number; cleanCacheMs?: number } = {},
): Promise<Setup> {
  const warnings: string[] = [];
  const reputation = remoteReputation(
    {
      provider,
      apiKey: 'test-api-key',
      baseUrl: options.baseUrl ?? fake.origin,
      timeoutMs: options.timeoutMs ?? 300,
      cleanCacheMs: options.cleanCacheMs ?? 60_000,
      policy,
    },
    (message) => warnings.push(message),
  );
  const server = await startTestServer(reputation ? { reputation } : {});
  servers.push(server);
  return { server, account: await createAccount(server, { plan: 'unlimited' }), warnings };
}

function expectRefused(response: ApiResponse, status: number, code: string, field: string) {
  expect(response.status).toBe(status);
  expect(response.body).toEqual({ code, message: expect.any(String), field });
}

let sb: Setup;
let sbClosed: Setup;
let wr: Setup;
beforeAll(async () => {
  [sb, sbClosed, wr] = await Promise.all([
    setup('safe-browsing', 'allow'),
    setup('safe-browsing', 'fail-closed'),
    setup('web-risk', 'fail-closed'),
  ]);
});

describe('Google Safe Browsing v4 Lookup', () => {
  test('is asked with the documented request: threatMatches:find, the API key, four threat types, the final URL', async () => {
    const destination = fresh('request');
    const response = await sb.account.call('POST', '/links', { title: 'x', destination_url: destination, utm: { source: 'mail' } });
    expect(response.status).toBe(201);
    const finalUrl = `${destination}?utm_source=mail`;
    const request = fake.requests.findLast((seen) => seen.path === '/v4/threatMatches:find');
    expect(request?.method).toBe('POST');
    expect(request?.query.get('key')).toBe('test-api-key');
    expect(request?.body).toEqual({
      client: { clientId: 'shortlinks', clientVersion: expect.any(String) },
      threatInfo: {
        threatTypes: ['MALWARE', 'SOCIAL_ENGINEERING', 'UNWANTED_SOFTWARE', 'POTENTIALLY_HARMFUL_APPLICATION'],
        platformTypes: ['ANY_PLATFORM'],
        threatEntryTypes: ['URL'],
        threatEntries: [{ url: finalUrl }],
      },
    });
  });

  const flaggedCases: [string, (account: TestAccount, url: string) => Promise<ApiResponse>, string][] = [
    [
      'POST /links destination_url',
      (account, url) => account.call('POST', '/links', { title: 'x', destination_url: url }),
      'destination_url',
    ],
    [
      'POST /links/upsert destination_url',
      (account, url) => account.call('POST', '/links/upsert', { title: 'x', destination_url: url }),
      'destination_url',
    ],
    [
      'POST /links expiration_url',
      (account, url) =>
        account.call('POST', '/links', { title: 'x', destination_url: fresh('ok'), expires_at: inDays(1), expiration_url: url }),
      'expiration_url',
    ],
    [
      'PATCH /links destination_url',
      async (account, url) => {
        const link = (await account.call('POST', '/links', { title: 'x', destination_url: fresh('patch') })).body;
        return account.call('PATCH', `/links/${link.id}`, { destination_url: url });
      },
      'destination_url',
    ],
    [
      'PATCH /links expiration_url',
      async (account, url) => {
        const link = (await account.call('POST', '/links', { title: 'x', destination_url: fresh('patch'), expires_at: inDays(1) })).body;
        return account.call('PATCH', `/links/${link.id}`, { expiration_url: url });
      },
      'expiration_url',
    ],
  ];

  test.each(flaggedCases)('a flagged URL on %s → 422 VALIDATION_ERROR naming the field, nothing saved', async (_where, send, field) => {
    const url = fresh('phish');
    fake.behaviours.set(url, { kind: 'flag', threatType: 'SOCIAL_ENGINEERING', cacheDuration: '300s' });
    const response = await send(sb.account, url);
    expectRefused(response, 422, 'VALIDATION_ERROR', field);
    expect(response.body.message).toContain('SOCIAL_ENGINEERING');
    expect(await countRows(sb.server, 'link', `destination_url = '${url}' or expiration_url = '${url}'`)).toBe(0);
  });

  test('a match is remembered for its cacheDuration: the second check does not ask again', async () => {
    const url = fresh('malware');
    fake.behaviours.set(url, { kind: 'flag', threatType: 'MALWARE', cacheDuration: '300s' });
    for (let i = 0; i < 3; i++) expect((await sb.account.call('POST', '/links', { title: 'x', destination_url: url })).status).toBe(422);
    expect(fake.asked(url)).toBe(1);
  });

  test('a match with a short cacheDuration is asked about again once it has passed', async () => {
    const url = fresh('short-cache');
    fake.behaviours.set(url, { kind: 'flag', threatType: 'MALWARE', cacheDuration: '0.2s' });
    expect((await sb.account.call('POST', '/links', { title: 'x', destination_url: url })).status).toBe(422);
    expect((await sb.account.call('POST', '/links', { title: 'x', destination_url: url })).status).toBe(422);
    expect(fake.asked(url)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    fake.behaviours.delete(url);
    expect((await sb.account.call('POST', '/links', { title: 'x', destination_url: url })).status).toBe(201);
    expect(fake.asked(url)).toBe(2);
  });

  test('a clean answer is remembered for the configured time', async () => {
    const url = fresh('clean');
    expect((await sb.account.call('POST', '/links', { title: 'a', destination_url: url })).status).toBe(201);
    expect((await sb.account.call('POST', '/links', { title: 'b', destination_url: url })).status).toBe(201);
    expect(fake.asked(url)).toBe(1);
  });

  test('concurrent checks of one URL ask once', async () => {
    const url = fresh('concurrent');
    fake.behaviours.set(url, { kind: 'flag', threatType: 'MALWARE', cacheDuration: '300s' });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => sb.account.call('POST', '/links', { title: 'x', destination_url: url })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([422, 422, 422, 422, 422]);
    expect(fake.asked(url)).toBe(1);
  });
});

describe('failure policy "allow" (the default)', () => {
  test.each<[string, () => string, (url: string) => void]>([
    ['answers HTTP 500', () => fresh('down'), (url) => fake.behaviours.set(url, { kind: 'error', status: 500 })],
    ['answers 429 (quota)', () => fresh('quota'), (url) => fake.behaviours.set(url, { kind: 'error', status: 429 })],
    ['answers no JSON', () => fresh('garbage'), (url) => fake.behaviours.set(url, { kind: 'garbage' })],
    ['is slower than the timeout', () => fresh('slow'), (url) => fake.behaviours.set(url, { kind: 'slow', ms: 3_000 })],
  ])('when the service %s, the link is created, a warning is logged, and nothing is cached', async (_what, make, behave) => {
    const url = make();
    behave(url);
    const warningsBefore = sb.warnings.length;
    expect((await sb.account.call('POST', '/links', { title: 'x', destination_url: url })).status).toBe(201);
    expect(sb.warnings.slice(warningsBefore)).toEqual([expect.stringMatching(/Google Safe Browsing is unavailable .*allowed unchecked/)]);
    fake.behaviours.set(url, { kind: 'flag', threatType: 'MALWARE' });
    expect((await sb.account.call('POST', '/links', { title: 'x', destination_url: url })).status).toBe(422);
  });

  test('when the service cannot be reached at all, the link is created with a warning', async () => {
    const unreachable = await setup('safe-browsing', 'allow', { baseUrl: `http://127.0.0.1:${await freePort()}` });
    expect((await unreachable.account.call('POST', '/links', { title: 'x', destination_url: fresh('nowhere') })).status).toBe(201);
    expect(unreachable.warnings).toHaveLength(1);
  });
});

describe('failure policy "fail-closed"', () => {
  test.each<[string, (url: string) => void]>([
    ['answers HTTP 503', (url) => fake.behaviours.set(url, { kind: 'error', status: 503 })],
    ['is slower than the timeout', (url) => fake.behaviours.set(url, { kind: 'slow', ms: 3_000 })],
  ])('when the service %s: 503 REPUTATION_UNAVAILABLE naming the field, nothing saved', async (_what, behave) => {
    const url = fresh('closed');
    behave(url);
    const before = await countRows(sbClosed.server, 'link');
    const refused = await sbClosed.account.call('POST', '/links', { title: 'x', destination_url: url });
    expectRefused(refused, 503, 'REPUTATION_UNAVAILABLE', 'destination_url');
    // A refusal that passes says when to try again.
    expect(refused.headers.get('retry-after')).toBe('30');
    expectRefused(
      await sbClosed.account.call('POST', '/links', {
        title: 'x',
        destination_url: fresh('ok'),
        expires_at: inDays(1),
        expiration_url: url,
      }),
      503,
      'REPUTATION_UNAVAILABLE',
      'expiration_url',
    );
    expect(await countRows(sbClosed.server, 'link')).toBe(before);
    expect(sbClosed.warnings.slice(-2)).toEqual([
      expect.stringMatching(/Google Safe Browsing is unavailable .*refused/),
      expect.stringMatching(/Google Safe Browsing is unavailable .*refused/),
    ]);
  });

  test('still refuses flagged URLs with 422 and accepts clean ones', async () => {
    const url = fresh('flagged-closed');
    fake.behaviours.set(url, { kind: 'flag', threatType: 'UNWANTED_SOFTWARE' });
    expect((await sbClosed.account.call('POST', '/links', { title: 'x', destination_url: url })).status).toBe(422);
    expect((await sbClosed.account.call('POST', '/links', { title: 'x', destination_url: fresh('fine') })).status).toBe(201);
  });
});

describe('Google Web Risk uris:search', () => {
  test('is asked with the documented request: GET, repeated threatTypes, the uri and the key', async () => {
    const url = fresh('web-risk');
    expect((await wr.account.call('POST', '/links', { title: 'x', destination_url: url })).status).toBe(201);
    const request = fake.requests.findLast((seen) => seen.path === '/v1/uris:search');
    expect(request?.method).toBe('GET');
    expect(request?.query.getAll('threatTypes')).toEqual(['MALWARE', 'SOCIAL_ENGINEERING', 'UNWANTED_SOFTWARE']);
    expect(request?.query.get('uri')).toBe(url);
    expect(request?.query.get('key')).toBe('test-api-key');
  });

  test('a threat is refused with 422 and remembered until its expireTime', async () => {
    const url = fresh('wr-threat');
    fake.behaviours.set(url, { kind: 'flag', threatType: 'MALWARE', expireTime: new Date(Date.now() + 3_600_000).toISOString() });
    for (let i = 0; i < 2; i++) {
      expectRefused(
        await wr.account.call('POST', '/links', { title: 'x', destination_url: url }),
        422,
        'VALIDATION_ERROR',
        'destination_url',
      );
    }
    expect(fake.asked(url)).toBe(1);
  });

  test('a threat whose expireTime has passed is asked about again', async () => {
    const url = fresh('wr-expired');
    fake.behaviours.set(url, { kind: 'flag', threatType: 'SOCIAL_ENGINEERING', expireTime: new Date(Date.now() - 1_000).toISOString() });
    for (let i = 0; i < 2; i++) expect((await wr.account.call('POST', '/links', { title: 'x', destination_url: url })).status).toBe(422);
    expect(fake.asked(url)).toBe(2);
  });

  test('down, with fail-closed: 503 REPUTATION_UNAVAILABLE', async () => {
    const url = fresh('wr-down');
    fake.behaviours.set(url, { kind: 'error', status: 500 });
    expectRefused(
      await wr.account.call('POST', '/links', { title: 'x', destination_url: url }),
      503,
      'REPUTATION_UNAVAILABLE',
      'destination_url',
    );
  });
});

describe('the operator denylist (pnpm shortlinks denylist)', () => {
  let server: TestServer;
  let account: TestAccount;
  let env: Record<string, string>;
  beforeAll(async () => {
    server = await startTestServer({ denylist: [] });
    servers.push(server);
    account = await createAccount(server);
    env = { DATABASE_URL: server.databaseUrl };
  });
  const create = (url: string) => account.call('POST', '/links', { title: 'x', destination_url: url });

  test('a domain refuses itself and its subdomains in any case, with a trailing dot, until removed', { timeout: 60_000 }, async () => {
    expect((await create('https://www.evil.example/a')).status).toBe(201);
    const added = await runCli(['denylist', 'add', 'Evil.Example.', '--json'], env);
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toEqual({ added: true, kind: 'domain', value: 'evil.example' });

    for (const url of ['https://evil.example/', 'https://WWW.EVIL.EXAMPLE./b', 'http://a.b.evil.example:8080/']) {
      expectRefused(await create(url), 422, 'VALIDATION_ERROR', 'destination_url');
    }
    expect((await create('https://notevil.example/')).status).toBe(201);
    expect((await runCli(['denylist', 'add', 'evil.example', '--json'], env)).stdout).toContain('"added": false');

    expect((await runCli(['denylist', 'remove', 'evil.example'], env)).code).toBe(0);
    expect((await create('https://evil.example/')).status).toBe(201);
    expect((await runCli(['denylist', 'remove', 'evil.example'], env)).code).toBe(1);
  });

  test('a URL prefix refuses the URLs under it only; internationalised domains are kept in punycode', { timeout: 60_000 }, async () => {
    expect((await runCli(['denylist', 'add', 'https://Files.Example.com/phish'], env)).code).toBe(0);
    expect((await runCli(['denylist', 'add', 'bücher.example'], env)).code).toBe(0);
    expectRefused(await create('https://files.example.com/phish/login?x=1'), 422, 'VALIDATION_ERROR', 'destination_url');
    expectRefused(await create('https://FILES.example.com./phishing'), 422, 'VALIDATION_ERROR', 'destination_url');
    expect((await create('https://files.example.com/photos')).status).toBe(201);
    expectRefused(await create('https://BÜCHER.example/'), 422, 'VALIDATION_ERROR', 'destination_url');
    expectRefused(await create('https://xn--bcher-kva.example/'), 422, 'VALIDATION_ERROR', 'destination_url');

    const listed = await runCli(['denylist', 'list', '--json'], env);
    expect((JSON.parse(listed.stdout) as { entries: { kind: string; value: string }[] }).entries).toEqual([
      { kind: 'domain', value: 'xn--bcher-kva.example', created_at: expect.any(Number) },
      { kind: 'prefix', value: 'https://files.example.com/phish', created_at: expect.any(Number) },
    ]);
  });

  test('refuses an entry that is neither a domain nor an http(s) URL with a usage error', { timeout: 30_000 }, async () => {
    const result = await runCli(['denylist', 'add', 'ftp://files.example/'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('http');
  });
});
