import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDnsServer, type TestDnsServer } from './dns-server.ts';
import { verifiedDomain } from './domain-visits.ts';
import { BROWSER_USER_AGENT, createAccount, createTestDatabase, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { waitFor } from './processes.ts';

/*
 * Smart links (issue #30) on branded domains (docs/domains.md): the password form, previews and
 * the announcements of a smart field's change all find the link by Host and slug
 * (Migration20261127402800_domain_smart_announcements).
 */

let dns: TestDnsServer;
let here: TestServer;
let there: TestServer;
let alice: TestAccount;

beforeAll(async () => {
  dns = await startDnsServer();
  const databaseUrl = await createTestDatabase();
  here = await startTestServer({ databaseUrl, dnsServers: [dns.address] });
  there = await startTestServer({ databaseUrl, dnsServers: [dns.address] });
  alice = await createAccount(here, { plan: 'unlimited' });
  await verifiedDomain(alice, dns, 'go.smart.example');
}, 60_000);
afterAll(async () => {
  await here?.close();
  await there?.close();
  await dns?.close();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with this Host header (fetch cannot set one). */
function send(
  server: TestServer,
  host: string,
  path: string,
  { method = 'GET', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const { port } = new URL(server.origin);
  return new Promise((resolve, reject) => {
    const sent = request(
      { host: '127.0.0.1', port, path, method, headers: { host, 'user-agent': BROWSER_USER_AGENT, ...headers } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
      },
    );
    sent.on('error', reject);
    sent.setTimeout(5000, () => sent.destroy(new Error('the request took too long')));
    sent.end(body);
  });
}

const sendPassword = (server: TestServer, host: string, slug: string, password: string) =>
  send(server, host, `/${slug}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password }).toString(),
  });

const create = async (body: Record<string, unknown>) => {
  const response = await alice.call('POST', '/links', { title: 'Smart', ...body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: string; slug: string; short_url: string };
};

describe('password-protected links on a branded domain', () => {
  test('the form and its POST find the link by Host and slug; the cookie is for /{slug} on that host', async () => {
    await create({ slug: 'vault', domain: 'go.smart.example', destination_url: 'https://example.com/branded', password: 'branded-pass' });
    // The same slug on the server's domain: another link, another password.
    await create({ slug: 'vault', destination_url: 'https://example.com/plain', password: 'plain-pass' });

    const form = await send(here, 'go.smart.example', '/vault');
    expect(form.status).toBe(200);
    expect(form.body).toContain('name="password"');

    // The server domain's password does not open the branded link, nor the other way round.
    expect((await sendPassword(here, 'go.smart.example', 'vault', 'plain-pass')).status).toBe(401);
    expect((await sendPassword(here, 'sho.rt', 'vault', 'branded-pass')).status).toBe(401);

    const right = await sendPassword(here, 'go.smart.example', 'vault', 'branded-pass');
    expect(right.status).toBe(302);
    expect(right.headers.location).toBe('https://example.com/branded');
    const cookie = String(right.headers['set-cookie']);
    expect(cookie).toContain('Path=/vault;');
    const unlocked = await send(here, 'go.smart.example', '/vault', { headers: { cookie: cookie.split(';')[0] ?? '' } });
    expect(unlocked.status).toBe(302);
    expect(unlocked.headers.location).toBe('https://example.com/branded');

    const plain = await sendPassword(here, 'sho.rt', 'vault', 'plain-pass');
    expect(plain.headers.location).toBe('https://example.com/plain');
  });

  test('a POST on a host no domain serves, or to a slug the domain does not have, is 404 and reads no password', async () => {
    await create({ slug: 'only-here', domain: 'go.smart.example', destination_url: 'https://example.com/x', password: 'only-pass' });
    expect((await sendPassword(here, 'unknown.example', 'only-here', 'only-pass')).status).toBe(404);
    expect((await sendPassword(here, 'sho.rt', 'only-here', 'only-pass')).status).toBe(404);
    expect((await sendPassword(here, 'go.smart.example', 'only-here', 'only-pass')).status).toBe(302);
  });
});

describe('previews on a branded domain', () => {
  test("a bot's preview names the link's short URL on its domain", async () => {
    await create({ slug: 'shown', domain: 'go.smart.example', destination_url: 'https://example.com/shown', preview: { title: 'Shown' } });
    const page = await send(here, 'go.smart.example', '/shown', { headers: { 'user-agent': 'Twitterbot/1.0' } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<meta property="og:url" content="https://go.smart.example/shown">');
  });
});

describe('announcements of smart fields on a branded domain', () => {
  test("a password set on one server locks the link on the other, which had cached it (dom_…/slug's announcement)", async () => {
    const link = await create({ slug: 'lock-me', domain: 'go.smart.example', destination_url: 'https://example.com/open' });
    // The other server learns of the domain from its announcement, then caches the open link.
    await waitFor(async () => (await send(there, 'go.smart.example', '/lock-me')).status === 302, 10_000, 'the other server serves it');
    expect((await send(there, 'go.smart.example', '/lock-me')).headers.location).toBe('https://example.com/open');

    expect((await alice.call('PATCH', `/links/${link.id}`, { password: 'now-locked' })).status).toBe(200);
    await waitFor(async () => (await send(there, 'go.smart.example', '/lock-me')).status === 200, 5_000, 'the other server locks it');
    expect((await send(there, 'go.smart.example', '/lock-me')).body).toContain('name="password"');
  });
});
