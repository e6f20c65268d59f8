import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type FailurePolicy, remoteReputation } from '@shortlinks/api/destinations';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FakeReputationService } from './fake-reputation.ts';
import { BROWSER_USER_AGENT, createAccount, createLink, startTestServer, type TestAccount, type TestServer } from './harness.ts';

/**
 * Prometheus metrics (docs/metrics.md), scraped from a real server's metrics listener after real
 * requests: each test reads the counters before and after what it does, and checks they moved by
 * exactly what it did. Visits come from distinct addresses (X-Forwarded-For, a trusted proxy),
 * so the per-visitor redirect limit only refuses the visitor a test means it to.
 */

const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const VISITS_PER_VISITOR = 3;

/** One scrape: each series (`name{label="value",…}`, labels sorted) and its value. */
type Scrape = Map<string, number>;

function seriesKey(name: string, labels: Record<string, string> = {}): string {
  const parts = Object.entries(labels)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([label, value]) => `${label}="${value}"`);
  return parts.length === 0 ? name : `${name}{${parts.join(',')}}`;
}

/** Parses the text format: `# HELP`/`# TYPE` lines are skipped, label order is normalised. */
function parseMetrics(text: string): Scrape {
  const series: Scrape = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a metric line: ${line}`);
    const [, name, labelText, value] = match as unknown as [string, string, string | undefined, string];
    const labels = Object.fromEntries([...(labelText ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => [k, v]));
    series.set(seriesKey(name, labels as Record<string, string>), Number(value));
  }
  return series;
}

let server: TestServer;
let alice: TestAccount;
let visitor = 0;

async function scrape(): Promise<Scrape> {
  const url = server.app.metricsUrl;
  if (!url) throw new Error('metrics are off');
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseMetrics(await response.text());
}

/** How much each series moved between two scrapes (missing series count as 0). */
function moved(before: Scrape, after: Scrape) {
  return (name: string, labels?: Record<string, string>) => {
    const key = seriesKey(name, labels);
    return (after.get(key) ?? 0) - (before.get(key) ?? 0);
  };
}

/** A visit of `/slug` from a visitor address of its own (or the one given), as a browser unless told. */
async function visit(slug: string, { from = newVisitor(), agent = BROWSER_USER_AGENT, method = 'GET' } = {}) {
  const response = await fetch(`${server.origin}/${slug}`, {
    method,
    redirect: 'manual',
    headers: { 'user-agent': agent, 'x-forwarded-for': from },
  });
  await response.arrayBuffer();
  return response.status;
}

/**
 * Creates a link and waits for its announcement (a trigger's NOTIFY, heard a moment after the
 * commit), which would otherwise empty the cache in the middle of a count. The API forgets the
 * slug in process once committed, and the announcement forgets it again, before or after the
 * answer: two invalidations, which the cache's snapshot counts.
 */
async function createSettledLink(body: Record<string, unknown>) {
  const cache = server.services.redirects.cache;
  const before = cache.snapshot();
  const link = await createLink(alice, body);
  for (let tries = 0; cache.snapshot() < before + 2; tries++) {
    if (tries > 100) throw new Error('the link announcement never came');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return link;
}

function newVisitor(): string {
  visitor += 1;
  return `198.51.100.${visitor}`;
}

beforeAll(async () => {
  server = await startTestServer({
    metrics: { port: 0, host: '127.0.0.1' },
    trustProxy: true,
    rateLimits: { redirects: VISITS_PER_VISITOR },
  });
  alice = await createAccount(server);
});
afterAll(() => server.close());

describe('the metrics listener', () => {
  test('serves /metrics on its own port of the host, and nothing else', async () => {
    const url = new URL(server.app.metricsUrl ?? '');
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.port).not.toBe(new URL(server.origin).port);
    expect((await fetch(new URL('/', url))).status).toBe(404);
    expect((await fetch(new URL('/metrics/extra', url))).status).toBe(404);
    expect((await fetch(new URL('/api/v1/links', url))).status).toBe(404);
    expect((await fetch(url, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${url}?format=text`)).status).toBe(200);
    // And the public port has no /metrics.
    expect((await fetch(`${server.origin}/metrics`)).status).toBe(404);
  });

  test('process metrics are there (CPU, memory, event loop)', async () => {
    const metrics = await scrape();
    expect(metrics.get('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(metrics.get('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(metrics.has('nodejs_eventloop_lag_p99_seconds')).toBe(true);
  });

  test('a server without metrics has no listener and no URL', async () => {
    const plain = await startTestServer();
    try {
      expect(plain.app.metricsUrl).toBeNull();
    } finally {
      await plain.close();
    }
  });
});

describe('API requests', () => {
  test('are counted by route pattern, method and status, with their time', async () => {
    const before = await scrape();
    const link = await createLink(alice);
    expect((await alice.call('GET', `/links/${link.id}`)).status).toBe(200);
    expect((await alice.call('GET', '/links/lnk_nosuchlink000000000000')).status).toBe(404);
    expect((await alice.call('POST', '/links', { title: 'No URL' })).status).toBe(422);
    expect((await fetch(`${server.api}/links`)).status).toBe(401);
    const after = await scrape();
    const delta = moved(before, after);
    const count = (route: string, method: string, status: number) =>
      delta('shortlinks_http_request_duration_seconds_count', { method, route, status_code: String(status) });

    expect(count('/api/v1/links', 'POST', 201)).toBe(1);
    expect(count('/api/v1/links', 'POST', 422)).toBe(1);
    expect(count('/api/v1/links', 'GET', 401)).toBe(1);
    // Both reads under one pattern: a link id never becomes a label.
    expect(count('/api/v1/links/:id', 'GET', 200)).toBe(1);
    expect(count('/api/v1/links/:id', 'GET', 404)).toBe(1);
    expect([...after.keys()].some((key) => key.includes(link.id))).toBe(false);
    // The histogram: the largest bucket holds every request, and time was spent.
    const labels = { method: 'POST', route: '/api/v1/links', status_code: '201' };
    expect(delta('shortlinks_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(1);
    expect(delta('shortlinks_http_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
  });

  test('paths no route serves are one series, whatever the path', async () => {
    const before = await scrape();
    expect((await fetch(`${server.origin}/nothing/here`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${server.origin}/nor/here/either`, { method: 'POST' })).status).toBe(404);
    // Under the API's prefix, its catch-all route answers: one pattern too.
    expect((await alice.call('GET', '/nothing/here')).status).toBe(404);
    expect((await alice.call('GET', '/nor/here')).status).toBe(404);
    const delta = moved(before, await scrape());
    expect(delta('shortlinks_http_request_duration_seconds_count', { method: 'POST', route: 'unmatched', status_code: '404' })).toBe(2);
    expect(delta('shortlinks_http_request_duration_seconds_count', { method: 'GET', route: '/api/v1/*', status_code: '404' })).toBe(2);
  });
});

describe('redirects', () => {
  test('by outcome and visitor: a first visit read from PostgreSQL, the next ones from the cache, a bot, a HEAD', async () => {
    await createSettledLink({ slug: 'metrics-hop' });
    const before = await scrape();
    expect(await visit('metrics-hop')).toBe(302); // not cached yet: Fastify's route reads it
    expect(await visit('metrics-hop')).toBe(302); // cached: the fast path
    expect(await visit('metrics-hop')).toBe(302);
    expect(await visit('metrics-hop', { agent: BOT })).toBe(302);
    expect(await visit('metrics-hop', { method: 'HEAD' })).toBe(302);
    const delta = moved(before, await scrape());

    expect(delta('shortlinks_redirects_total', { outcome: 'redirected', visitor: 'human' })).toBe(4);
    expect(delta('shortlinks_redirects_total', { outcome: 'redirected', visitor: 'bot' })).toBe(1);
    expect(delta('shortlinks_redirect_cache_misses_total')).toBe(1);
    expect(delta('shortlinks_redirect_cache_hits_total')).toBe(4);
    // Three human GETs are clicks; the bot and the HEAD are not.
    expect(delta('shortlinks_clicks_buffered_total')).toBe(3);
    // Visits are not API requests.
    expect(delta('shortlinks_http_request_duration_seconds_count', { method: 'GET', route: '/:slug', status_code: '302' })).toBe(0);
  });

  test('an unknown slug is not_found, read once and then known to the cache', async () => {
    const before = await scrape();
    expect(await visit('metrics-nowhere')).toBe(404);
    expect(await visit('metrics-nowhere')).toBe(404);
    expect(await visit('metrics-nowhere', { agent: BOT })).toBe(404);
    const delta = moved(before, await scrape());
    expect(delta('shortlinks_redirects_total', { outcome: 'not_found', visitor: 'human' })).toBe(2);
    expect(delta('shortlinks_redirects_total', { outcome: 'not_found', visitor: 'bot' })).toBe(1);
    expect(delta('shortlinks_redirect_cache_misses_total')).toBe(1);
    expect(delta('shortlinks_redirect_cache_hits_total')).toBe(2);
  });

  test('an expired link is expired, and its change announced to the cache is an invalidation', async () => {
    const link = await createSettledLink({ slug: 'metrics-expiring', expires_at: Date.now() + 86_400_000 });
    expect(await visit('metrics-expiring')).toBe(302);
    const before = await scrape();
    expect(before.get('shortlinks_redirect_cache_entries')).toBeGreaterThanOrEqual(1);
    await server.orm.em.fork().getConnection().execute(`update link set expires_at = now() - interval '1 second' where id = '${link.id}'`);
    // The trigger's announcement reaches the listener a moment later.
    let after = await scrape();
    for (let tries = 0; moved(before, after)('shortlinks_redirect_cache_invalidations_total') === 0 && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await scrape();
    }
    expect(moved(before, after)('shortlinks_redirect_cache_invalidations_total')).toBe(1);
    expect(await visit('metrics-expiring')).toBe(410);
    expect(await visit('metrics-expiring')).toBe(410);
    const delta = moved(before, await scrape());
    expect(delta('shortlinks_redirects_total', { outcome: 'expired', visitor: 'human' })).toBe(2);
    expect(delta('shortlinks_redirect_cache_misses_total')).toBe(1);
    expect(delta('shortlinks_redirect_cache_hits_total')).toBe(1);
  });

  test('a visitor over the limit is rate_limited, on the fast path and on the route', async () => {
    await createSettledLink({ slug: 'metrics-limited' });
    const before = await scrape();
    const from = newVisitor();
    for (let i = 0; i < VISITS_PER_VISITOR; i++) expect(await visit('metrics-limited', { from })).toBe(302);
    expect(await visit('metrics-limited', { from })).toBe(429); // cached: refused by the fast path
    expect(await visit('metrics-not-cached', { from })).toBe(429); // refused by the route, before any lookup
    const delta = moved(before, await scrape());
    expect(delta('shortlinks_redirects_total', { outcome: 'redirected', visitor: 'human' })).toBe(VISITS_PER_VISITOR);
    expect(delta('shortlinks_redirects_total', { outcome: 'rate_limited', visitor: 'human' })).toBe(2);
    expect(delta('shortlinks_redirect_cache_misses_total')).toBe(1);
    expect(delta('shortlinks_redirect_cache_hits_total')).toBe(VISITS_PER_VISITOR);
  });
});

describe('clicks', () => {
  test('buffered, then flushed by a timed write; nothing dropped', async () => {
    await createSettledLink({ slug: 'metrics-clicks' });
    await server.services.clicks.flush();
    const before = await scrape();
    for (let i = 0; i < 4; i++) expect(await visit('metrics-clicks')).toBe(302);
    const buffered = await scrape();
    expect(moved(before, buffered)('shortlinks_clicks_buffered_total')).toBe(4);
    expect(buffered.get('shortlinks_clicks_pending')).toBe(4);
    expect(moved(before, buffered)('shortlinks_clicks_flushed_total')).toBe(0);

    await server.services.clicks.flush();
    const after = await scrape();
    const delta = moved(before, after);
    expect(delta('shortlinks_clicks_flushed_total')).toBe(4);
    expect(after.get('shortlinks_clicks_pending')).toBe(0);
    expect(delta('shortlinks_click_flush_duration_seconds_count', { result: 'written' })).toBe(1);
    expect(delta('shortlinks_click_flush_duration_seconds_sum', { result: 'written' })).toBeGreaterThan(0);
    expect(after.get(seriesKey('shortlinks_clicks_dropped_total', { reason: 'buffer_full' }))).toBe(0);
    expect(after.get(seriesKey('shortlinks_clicks_dropped_total', { reason: 'refused' }))).toBe(0);
  });
});

describe('the database', () => {
  test('pool connections by state, its size, waiting queries, and failed statements', async () => {
    const before = await scrape();
    expect(before.get('shortlinks_db_pool_max_connections')).toBe(10);
    const open =
      (before.get(seriesKey('shortlinks_db_pool_connections', { state: 'idle' })) ?? 0) +
      (before.get(seriesKey('shortlinks_db_pool_connections', { state: 'in_use' })) ?? 0);
    expect(open).toBeGreaterThanOrEqual(1);
    expect(open).toBeLessThanOrEqual(10);
    expect(before.get('shortlinks_db_pool_waiting')).toBe(0);

    const connection = server.orm.em.fork().getConnection();
    await expect(connection.execute('select 1 / 0')).rejects.toThrow(/division by zero/);
    await expect(connection.execute('select * from no_such_table')).rejects.toThrow(/no_such_table/);
    await connection.execute('select 1');
    const delta = moved(before, await scrape());
    expect(delta('shortlinks_db_errors_total', { kind: 'query' })).toBe(2);
    expect(delta('shortlinks_db_errors_total', { kind: 'connect' })).toBe(0);
  });
});

describe('reputation checks', () => {
  test('each source timed on its own, by result', async () => {
    const before = await scrape();
    // The harness's sources: the stored denylist, then a domain list refusing flagged.example.
    await createLink(alice, { destination_url: 'https://example.com/clean-for-metrics' });
    expect((await alice.call('POST', '/links', { title: 'Bad', destination_url: 'https://flagged.example/x' })).status).toBe(422);
    const delta = moved(before, await scrape());
    const checks = (provider: string, result: string) => delta('shortlinks_reputation_check_duration_seconds_count', { provider, result });
    expect(checks('denylist', 'clean')).toBe(2);
    expect(checks('url_denylist', 'clean')).toBe(1);
    expect(checks('url_denylist', 'flagged')).toBe(1);
  });
});

describe('remote reputation checks (a local stand-in for Safe Browsing)', () => {
  let fake: FakeReputationService;
  beforeAll(async () => {
    fake = await new FakeReputationService().start();
  });
  afterAll(() => fake.stop());

  /** A server asking the fake after its denylists, with the given failure policy, and its metrics on. */
  async function remoteServer(policy: FailurePolicy) {
    const reputation = remoteReputation(
      { provider: 'safe-browsing', apiKey: 'test-api-key', baseUrl: fake.origin, timeoutMs: 300, cleanCacheMs: 60_000, policy },
      () => {},
    );
    const remote = await startTestServer({ reputation, metrics: { port: 0, host: '127.0.0.1' } });
    return { remote, account: await createAccount(remote) };
  }

  test('clean, flagged, and unavailable under either failure policy', async () => {
    const allowing = await remoteServer('allow');
    const refusing = await remoteServer('fail-closed');
    try {
      fake.behaviours.set('https://bad.example.org/', { kind: 'flag', threatType: 'MALWARE' });
      fake.behaviours.set('https://down.example.org/', { kind: 'error', status: 503 });
      const create = (account: TestAccount, destination_url: string) =>
        account.call('POST', '/links', { title: 'Checked', destination_url });
      expect((await create(allowing.account, 'https://good.example.org/')).status).toBe(201);
      expect((await create(allowing.account, 'https://good.example.org/')).status).toBe(201); // from the provider's cache
      expect((await create(allowing.account, 'https://bad.example.org/')).status).toBe(422);
      expect((await create(allowing.account, 'https://down.example.org/')).status).toBe(201);
      expect((await create(refusing.account, 'https://down.example.org/')).status).toBe(503);

      const scrapeOf = async (target: TestServer) => parseMetrics(await (await fetch(target.app.metricsUrl ?? '')).text());
      const checks = (metrics: Scrape, provider: string, result: string) =>
        metrics.get(seriesKey('shortlinks_reputation_check_duration_seconds_count', { provider, result })) ?? 0;
      const allowed = await scrapeOf(allowing.remote);
      expect(checks(allowed, 'safe-browsing', 'clean')).toBe(2);
      expect(checks(allowed, 'safe-browsing', 'flagged')).toBe(1);
      expect(checks(allowed, 'safe-browsing', 'unavailable')).toBe(1);
      expect(checks(allowed, 'denylist', 'clean')).toBe(4);
      const refused = await scrapeOf(refusing.remote);
      expect(checks(refused, 'safe-browsing', 'unavailable')).toBe(1);
      expect(checks(refused, 'safe-browsing', 'error')).toBe(0);
    } finally {
      await allowing.remote.close();
      await refusing.remote.close();
    }
  });
});

describe('the documentation', () => {
  test('every metric docs/metrics.md and the Grafana dashboard name is served, and every one served is documented', async () => {
    const docs = path.resolve(import.meta.dirname, '../../../docs');
    const page = await readFile(path.join(docs, 'metrics.md'), 'utf8');
    const dashboard = await readFile(path.join(docs, 'grafana-dashboard.json'), 'utf8');
    JSON.parse(dashboard);
    // Every metric has its TYPE line, even one with no series yet (a histogram nothing was observed in).
    const text = await (await fetch(server.app.metricsUrl ?? '')).text();
    const served = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map(([, name]) => name as string));
    const named = (text: string) => new Set([...text.matchAll(/\b(?:shortlinks|process|nodejs)_[a-z0-9_]+/g)].map(([name]) => name));
    const base = (name: string) => name.replace(/_(bucket|count|sum)$/, '');
    for (const name of named(dashboard)) expect(served, `${name} (dashboard)`).toContain(base(name));
    for (const name of named(page)) {
      // `process_cpu_*` names a family.
      if (!name.endsWith('_')) expect(served, `${name} (docs/metrics.md)`).toContain(base(name));
    }
    const documented = named(page);
    for (const name of served) if (name.startsWith('shortlinks_')) expect(documented, `${name} is served`).toContain(name);
  });
});
