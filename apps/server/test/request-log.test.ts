import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BROWSER_USER_AGENT, createAccount, createLink, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { freePort, runCli, startServerProcess, waitFor } from './processes.ts';

/**
 * Log lines are written asynchronously (log-destination.ts): a busy server must still write each
 * line whole, and the lines still buffered when it is stopped. At info, visits are summed up
 * (redirects/visit-log.ts): a stop must lose none of their count.
 */
describe('request log lines at the default level (info)', () => {
  let dataDir: string;
  let env: Record<string, string>;
  let base: string;
  let metricsUrl: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'shortlinks-request-log-'));
    const port = await freePort();
    const metricsPort = await freePort();
    env = {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      LOG_LEVEL: 'info',
      REDIRECT_RATE_LIMIT: '100000',
      METRICS_PORT: String(metricsPort),
    };
    base = `http://127.0.0.1:${port}`;
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  test('3,000 redirects in bursts of 50, then SIGTERM: every line whole, every visit counted (log and metrics), the API call logged', {
    timeout: 120_000,
  }, async () => {
    const server = startServerProcess(env);
    const visits = 3_000;
    let slug = '';
    try {
      await waitFor(async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.status === 200, 60_000, 'the server');
      const created = await runCli(['account', 'create', '--name', 'Logs', '--plan', 'starter', '--json'], env);
      const key = (JSON.parse(created.stdout) as { api_key: string }).api_key;
      const link = (await (
        await fetch(`${base}/api/v1/links`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ title: 'Logged', destination_url: 'https://example.com/logged' }),
        })
      ).json()) as { slug: string };
      slug = link.slug;
      for (let sent = 0; sent < visits; sent += 50) {
        const answers = await Promise.all(Array.from({ length: 50 }, () => fetch(`${base}/${slug}`, { redirect: 'manual' })));
        expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(302));
      }
      // METRICS_PORT set: main.ts serves the metrics, which counted every visit too.
      const metrics = await (await fetch(metricsUrl)).text();
      // Node's fetch says it is `node`: a bot, whose visits are not clicks.
      expect(metrics).toMatch(/^shortlinks_redirects_total\{outcome="redirected",visitor="bot"\} 3000$/m);
      expect(metrics).toMatch(/^shortlinks_redirects_total\{outcome="redirected",visitor="human"\} 0$/m);
    } finally {
      server.child.kill('SIGTERM');
    }
    const [code] = await new Promise<[number | null]>((resolve) => server.child.once('exit', (exitCode) => resolve([exitCode])));
    expect(code, server.output()).toBe(0);

    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map(
        (line) => JSON.parse(line) as { msg?: string; url?: string; status?: number; method?: string; statuses?: Record<string, number> },
      );
    expect(lines.filter((line) => line.url === `/${slug}`)).toEqual([]);
    const counted = lines.filter((line) => line.msg === 'visits').reduce((sum, line) => sum + (line.statuses?.['302'] ?? 0), 0);
    expect(counted).toBe(visits);
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'request', method: 'POST', status: 201 }));
    expect(lines.some((line) => line.msg === 'shutting down')).toBe(true);
  });
});

/**
 * What an access line holds (docs/metrics.md#access-logs): the request id, the full path as
 * asked, the route pattern, status, time and the API key's id, never the key.
 */
describe('access log lines', () => {
  let server: TestServer;
  let alice: TestAccount;
  let limited: TestAccount;
  const lines: Record<string, unknown>[] = [];
  const linesOf = (reqId: string | null) => lines.filter((line) => line.reqId === reqId);

  beforeAll(async () => {
    const many = 1_000_000;
    server = await startTestServer({
      logLevel: 'info',
      logStream: { write: (line) => lines.push(JSON.parse(line)) },
      rateLimits: { apiPerPlan: { starter: many, trial: 1, team: many, unlimited: many } },
    });
    alice = await createAccount(server);
    limited = await createAccount(server, { plan: 'trial' });
  });
  afterAll(() => server.close());

  test('a REST call: its full path and query, route pattern, status, time, request id and key id, never the key', async () => {
    const link = await createLink(alice);
    const response = await alice.call('GET', `/links/${link.id}?fields=all`);
    const reqId = response.headers.get('x-request-id');
    expect(reqId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const caller = await server.services.apiKeys.authenticate(alice.key);
    expect(linesOf(reqId)).toEqual([
      {
        level: 30,
        time: expect.any(Number),
        pid: expect.any(Number),
        hostname: expect.any(String),
        reqId,
        msg: 'request',
        method: 'GET',
        url: `/api/v1/links/${link.id}?fields=all`,
        route: '/api/v1/links/:id',
        status: response.status,
        ms: expect.any(Number),
        keyId: caller?.keyId,
      },
    ]);
    expect(JSON.stringify(lines)).not.toContain(alice.key);
  });

  test('a tRPC call and a call without a key: the path as asked, no key id', async () => {
    const trpc = await fetch(`${server.origin}/trpc/links.list`, { headers: { authorization: `Bearer ${alice.key}` } });
    expect(linesOf(trpc.headers.get('x-request-id'))).toEqual([
      expect.objectContaining({ url: '/trpc/links.list', status: trpc.status, keyId: expect.any(String) }),
    ]);
    const anonymous = await fetch(`${server.api}/links?limit=2`);
    expect(anonymous.status).toBe(401);
    const [line] = linesOf(anonymous.headers.get('x-request-id'));
    expect(line).toMatchObject({ url: '/api/v1/links?limit=2', route: '/api/v1/links', status: 401 });
    expect(line).not.toHaveProperty('keyId');
  });

  test('X-Request-Id: a safe one is taken, logged and echoed', async () => {
    for (const id of ['3f2b8c1e-0d9a-4c55-9a77-0e1f2a3b4c5d', 'nginx-7f3a9c', 'a.b:c/d+e=f@g_h', 'x'.repeat(128)]) {
      const response = await alice.call('GET', '/links', undefined, { 'x-request-id': id });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-request-id')).toBe(id);
      expect(linesOf(id)).toEqual([expect.objectContaining({ url: '/api/v1/links', status: 200 })]);
    }
  });

  test('X-Request-Id: an unsafe one is replaced by a new id, which is logged and answered', async () => {
    for (const id of ['has space', 'x'.repeat(129), 'quote"d', 'new\tline', '{"json":1}', 'é']) {
      const response = await alice.call('GET', '/links', undefined, { 'x-request-id': id });
      const answered = response.headers.get('x-request-id');
      expect(answered).toMatch(/^[0-9a-f-]{36}$/);
      expect(linesOf(answered)).toHaveLength(1);
      expect(JSON.stringify(lines)).not.toContain(id);
    }
  });

  test('every answer names its request: 404, 401, 422, 429, a broken URL', async () => {
    const id = (n: number) => `answer-${n}`;
    const answers = [
      await alice.call('GET', '/nothing/here', undefined, { 'x-request-id': id(1) }),
      await fetch(`${server.origin}/not/a/link`, { method: 'POST', headers: { 'x-request-id': id(2) } }),
      await fetch(`${server.api}/links`, { headers: { 'x-request-id': id(3) } }),
      await alice.call('POST', '/links', { title: 'No URL' }, { 'x-request-id': id(4) }),
      await limited.call('GET', '/links', undefined, { 'x-request-id': id(5) }),
      await limited.call('GET', '/links', undefined, { 'x-request-id': id(6) }),
      await fetch(`${server.api}/links/%ED%A0%80`, { headers: { 'x-request-id': id(7) } }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([404, 404, 401, 422, 200, 429, 400]);
    expect(answers.map((answer) => answer.headers.get('x-request-id'))).toEqual([1, 2, 3, 4, 5, 6, 7].map(id));
    expect(linesOf(id(6))).toEqual([expect.objectContaining({ status: 429, route: '/api/v1/links', keyId: expect.any(String) })]);
  });

  test('visits: no line at info, the client id echoed on both paths, none made up', async () => {
    await createLink(alice, { slug: 'logged-visit' });
    const visit = (headers: Record<string, string> = {}) =>
      fetch(`${server.origin}/logged-visit`, { redirect: 'manual', headers: { 'user-agent': BROWSER_USER_AGENT, ...headers } });
    const first = await visit({ 'x-request-id': 'visit-1' }); // Fastify's route (not cached yet)
    const second = await visit({ 'x-request-id': 'visit-2' }); // the fast path
    const third = await visit({ 'x-request-id': 'not safe' });
    const fourth = await visit();
    expect([first, second, third, fourth].map((answer) => answer.status)).toEqual([302, 302, 302, 302]);
    expect([first, second, third, fourth].map((answer) => answer.headers.get('x-request-id'))).toEqual(['visit-1', 'visit-2', null, null]);
    const unknown = await fetch(`${server.origin}/no-such-visit`, { headers: { 'x-request-id': 'visit-5' } });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-request-id')).toBe('visit-5');
    expect(lines.filter((line) => typeof line.url === 'string' && /visit/.test(line.url))).toEqual([]);
  });
});
