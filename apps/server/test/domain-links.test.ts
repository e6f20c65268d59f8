import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDnsServer, type TestDnsServer } from './dns-server.ts';
import { verifiedDomain, visitHost } from './domain-visits.ts';
import { type ApiResponse, createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { waitFor } from './processes.ts';

let dns: TestDnsServer;
let server: TestServer;
let alice: TestAccount;
let bob: TestAccount;

beforeAll(async () => {
  dns = await startDnsServer();
  server = await startTestServer({ dnsServers: [dns.address] });
  alice = await createAccount(server, { plan: 'unlimited' });
  bob = await createAccount(server, { plan: 'unlimited' });
  await verifiedDomain(alice, dns, 'go.acme.example');
  await verifiedDomain(alice, dns, 'links.acme.example');
  await verifiedDomain(bob, dns, 'bob.example');
});
afterAll(async () => {
  await server.close();
  await dns.close();
});

function expectError(response: ApiResponse, status: number, code: string, field?: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.code).toBe(code);
  if (field !== undefined) expect(response.body.field).toBe(field);
}

const link = (body: Record<string, unknown>) => ({ title: 'Launch', destination_url: `https://example.com/${Math.random()}`, ...body });

describe('links on a branded domain', () => {
  test('domain on create: the link carries it, and short_url is built from it', async () => {
    const response = await alice.call('POST', '/links', link({ slug: 'launch', domain: 'go.acme.example' }));
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ domain: 'go.acme.example', short_url: 'https://go.acme.example/launch', slug: 'launch' });
    const read = await alice.call('GET', `/links/${response.body.id}`);
    expect(read.body).toMatchObject({ domain: 'go.acme.example', short_url: 'https://go.acme.example/launch' });
  });

  test('a link without domain is on the server domain as before', async () => {
    const response = await alice.call('POST', '/links', link({ slug: 'plain' }));
    expect(response.body).toMatchObject({ domain: 'sho.rt', short_url: 'https://sho.rt/plain' });
  });

  test('the same slug lives on several domains; SLUG_TAKEN within one', async () => {
    for (const domain of [undefined, 'go.acme.example', 'links.acme.example']) {
      const response = await alice.call('POST', '/links', link({ slug: 'twice', ...(domain ? { domain } : {}) }));
      expect(response.status, JSON.stringify(response.body)).toBe(201);
    }
    expect((await bob.call('POST', '/links', link({ slug: 'twice', domain: 'bob.example' }))).status).toBe(201);
    expectError(await alice.call('POST', '/links', link({ slug: 'twice', domain: 'go.acme.example' })), 409, 'SLUG_TAKEN', 'slug');
    expectError(await bob.call('POST', '/links', link({ slug: 'twice' })), 409, 'SLUG_TAKEN', 'slug');
  });

  test('reserved words hold on every domain', async () => {
    expectError(await alice.call('POST', '/links', link({ slug: 'docs', domain: 'go.acme.example' })), 422, 'SLUG_INVALID', 'slug');
  });

  test.each([
    ['an unknown domain', 'nowhere.example'],
    ["another workspace's domain", 'bob.example'],
    ['not a domain name', '%%%'],
  ])('%s is 422 on domain, nothing created', async (_what, domain) => {
    expectError(await alice.call('POST', '/links', link({ domain })), 422, 'VALIDATION_ERROR', 'domain');
  });

  test('an unverified domain is 422 on domain', async () => {
    await alice.call('POST', '/domains', { name: 'unverified.acme.example' });
    expectError(await alice.call('POST', '/links', link({ domain: 'unverified.acme.example' })), 422, 'VALIDATION_ERROR', 'domain');
  });

  test('domain cannot be changed by PATCH', async () => {
    const created = (await alice.call('POST', '/links', link({ domain: 'go.acme.example' }))).body;
    expectError(await alice.call('PATCH', `/links/${created.id}`, { domain: 'links.acme.example' }), 422, 'VALIDATION_ERROR');
    expect((await alice.call('GET', `/links/${created.id}`)).body.domain).toBe('go.acme.example');
  });

  test('omitted, the default domain is used; naming the server domain overrides it', async () => {
    const carol = await createAccount(server, { plan: 'unlimited' });
    const id = await verifiedDomain(carol, dns, 'carol.example');
    expect((await carol.call('PATCH', `/domains/${id}`, { is_default: true })).status).toBe(200);
    const onDefault = await carol.call('POST', '/links', link({}));
    expect(onDefault.body).toMatchObject({
      domain: 'carol.example',
      short_url: expect.stringMatching(/^https:\/\/carol\.example\/[A-Za-z0-9]{6}$/),
    });
    const onServer = await carol.call('POST', '/links', link({ domain: 'sho.rt' }));
    expect(onServer.body.domain).toBe('sho.rt');
    const upserted = await carol.call('POST', '/links/upsert', link({ destination_url: 'https://example.com/upserted' }));
    expect(upserted.body.domain).toBe('carol.example');
  });

  test('bulk create takes domain per item', async () => {
    const response = await alice.call('POST', '/links/bulk', {
      links: [link({ slug: 'bulk-a', domain: 'go.acme.example' }), link({ slug: 'bulk-a' }), link({ domain: 'nowhere.example' })],
    });
    expect(response.status).toBe(207);
    expect(response.body.results[0].link).toMatchObject({ domain: 'go.acme.example' });
    expect(response.body.results[1].link).toMatchObject({ domain: 'sho.rt' });
    expect(response.body.results[2].error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'domain' });
  });

  test('the list takes a domain filter', async () => {
    const page = await alice.call('GET', '/links?domain=links.acme.example&per_page=100');
    expect(page.status).toBe(200);
    expect(page.body.links.length).toBeGreaterThan(0);
    expect(page.body.links.every((one: { domain: string }) => one.domain === 'links.acme.example')).toBe(true);
    expect(page.body.total).toBe(page.body.links.length);
    const server = await alice.call('GET', '/links?domain=sho.rt&per_page=100');
    expect(server.body.links.every((one: { domain: string }) => one.domain === 'sho.rt')).toBe(true);
    expectError(await alice.call('GET', '/links?domain=bob.example'), 422, 'VALIDATION_ERROR', 'domain');
  });

  test('the export takes the same domain filter: the links on that domain only, an unknown domain refused before any file', async () => {
    const onBranded = await alice.call('GET', '/links?domain=links.acme.example&per_page=100');
    const file = await fetch(`${server.origin}/api/v1/links/export?format=jsonl&domain=links.acme.example`, {
      headers: { authorization: `Bearer ${alice.key}` },
    });
    expect(file.status).toBe(200);
    const lines = (await file.text())
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { id: string; short_url: string });
    expect(lines.map((line) => line.id).sort()).toEqual(onBranded.body.links.map((one: { id: string }) => one.id).sort());
    expect(lines.every((line) => line.short_url.startsWith('https://links.acme.example/'))).toBe(true);
    const onServer = await fetch(`${server.origin}/api/v1/links/export?format=jsonl&domain=sho.rt`, {
      headers: { authorization: `Bearer ${alice.key}` },
    });
    const serverLines = (await onServer.text()).split('\n').filter((line) => line !== '');
    expect(serverLines.length).toBeGreaterThan(0);
    expect(serverLines.every((line) => (JSON.parse(line) as { short_url: string }).short_url.startsWith('https://sho.rt/'))).toBe(true);
    const foreign = await fetch(`${server.origin}/api/v1/links/export?domain=bob.example`, {
      headers: { authorization: `Bearer ${alice.key}` },
    });
    expect(foreign.status).toBe(422);
    expect(await foreign.json()).toMatchObject({ code: 'VALIDATION_ERROR', field: 'domain' });
  });

  test('every verified domain is refused as a destination', async () => {
    expectError(
      await bob.call('POST', '/links', { title: 'Loop', destination_url: 'https://go.acme.example/launch' }),
      422,
      'VALIDATION_ERROR',
      'destination_url',
    );
  });

  test('DELETE /domains/{id} is DOMAIN_HAS_LINKS while live links use it', async () => {
    const id = await verifiedDomain(alice, dns, 'short-lived.acme.example');
    const created = (await alice.call('POST', '/links', link({ domain: 'short-lived.acme.example' }))).body;
    expectError(await alice.call('DELETE', `/domains/${id}`), 409, 'DOMAIN_HAS_LINKS');
    expect((await alice.call('DELETE', `/links/${created.id}`)).status).toBe(204);
    expect((await alice.call('DELETE', `/domains/${id}`)).status).toBe(204);
  });
});

describe('redirects by host', () => {
  test('the Host picks the domain; the slug is looked up on it only', async () => {
    const onAcme = (await alice.call('POST', '/links', link({ slug: 'hosted', domain: 'go.acme.example' }))).body;
    const onServer = (await bob.call('POST', '/links', link({ slug: 'hosted' }))).body;
    for (let visit = 0; visit < 2; visit++) {
      // The second visit is answered from the redirect cache, before Fastify.
      expect(await visitHost(server, 'go.acme.example', '/hosted')).toMatchObject({ status: 302, location: onAcme.destination_url });
      expect(await visitHost(server, 'GO.acme.example:443', '/hosted')).toMatchObject({ status: 302, location: onAcme.destination_url });
      expect(await visitHost(server, 'sho.rt', '/hosted')).toMatchObject({ status: 302, location: onServer.destination_url });
      expect(await visitHost(server, '127.0.0.1', '/hosted')).toMatchObject({ status: 302, location: onServer.destination_url });
      expect((await visitHost(server, 'links.acme.example', '/hosted')).status).toBe(404);
    }
  });

  test('a host that is neither the server domain nor a verified one gets 404 and nothing is looked up', async () => {
    await bob.call('POST', '/links', link({ slug: 'elsewhere' }));
    for (const host of ['unknown.example', 'unverified.acme.example', 'sho.rt.evil.example']) {
      const visit = await visitHost(server, host, '/elsewhere');
      expect(visit.status).toBe(404);
      expect((await visitHost(server, host, '/')).status).toBe(404);
    }
    expect(server.services.redirects.cache.get('elsewhere')).toBeUndefined();
  });

  test('on a verified domain, / goes to root_redirect_url and an unknown slug to not_found_url; else the 404 page', async () => {
    expect((await visitHost(server, 'links.acme.example', '/')).status).toBe(404);
    expect((await visitHost(server, 'links.acme.example', '/missing')).status).toBe(404);
    const id = (await alice.call('GET', '/domains')).body.domains.find((one: { name: string }) => one.name === 'links.acme.example').id;
    await alice.call('PATCH', `/domains/${id}`, { root_redirect_url: 'https://acme.example/', not_found_url: 'https://acme.example/404' });
    expect(await visitHost(server, 'links.acme.example', '/')).toMatchObject({ status: 302, location: 'https://acme.example/' });
    expect(await visitHost(server, 'links.acme.example', '/missing')).toMatchObject({ status: 302, location: 'https://acme.example/404' });
    expect(await visitHost(server, 'links.acme.example', '/not%20a%20slug')).toMatchObject({
      status: 302,
      location: 'https://acme.example/404',
    });
    // The server's own domain keeps its home page.
    expect((await visitHost(server, 'sho.rt', '/')).status).toBe(200);
  });

  test('a click on a branded domain counts for its link', async () => {
    const created = (await alice.call('POST', '/links', link({ slug: 'counted', domain: 'go.acme.example' }))).body;
    const { port } = new URL(server.origin);
    const { request } = await import('node:http');
    await new Promise<void>((resolve, reject) => {
      const sent = request(
        {
          host: '127.0.0.1',
          port,
          path: '/counted',
          headers: { host: 'go.acme.example', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0' },
        },
        (response) => {
          response.resume();
          response.on('end', resolve);
        },
      );
      sent.on('error', reject);
      sent.end();
    });
    await server.services.clicks.flush();
    expect((await alice.call('GET', `/links/${created.id}`)).body.click_count).toBe(1);
  });
});

describe('a second server', () => {
  test('sees a domain verified on the first at once, and serves its links', async () => {
    const second = await startTestServer({ databaseUrl: server.databaseUrl, dnsServers: [dns.address] });
    try {
      const id = await verifiedDomain(alice, dns, 'second.acme.example');
      await waitFor(() => second.services.domains.directory.served('second.acme.example')?.id === id, 5000, 'the domain to be announced');
      const created = (await alice.call('POST', '/links', link({ slug: 'seen', domain: 'second.acme.example' }))).body;
      await waitFor(async () => (await visitHost(second, 'second.acme.example', '/seen')).status === 302, 5000, 'the link to redirect');
      expect((await visitHost(second, 'second.acme.example', '/seen')).location).toBe(created.destination_url);
      await alice.call('DELETE', `/links/${created.id}`);
      await waitFor(
        async () => (await visitHost(second, 'second.acme.example', '/seen')).status === 404,
        5000,
        'the deletion to be announced',
      );
    } finally {
      await second.close();
    }
  });
});

describe('GET /.well-known/shortlinks/tls-ask', () => {
  test('200 for a verified domain, 404 for anything else', async () => {
    const ask = (domain: string) => fetch(`${server.origin}/.well-known/shortlinks/tls-ask?domain=${encodeURIComponent(domain)}`);
    expect((await ask('go.acme.example')).status).toBe(200);
    expect((await ask('GO.acme.example.')).status).toBe(200);
    for (const domain of ['unverified.acme.example', 'unknown.example', 'sho.rt', '', 'x'.repeat(300)]) {
      expect((await ask(domain)).status, domain).toBe(404);
    }
    expect((await fetch(`${server.origin}/.well-known/shortlinks/tls-ask`)).status).toBe(404);
  });
});

describe('import and export carry the domain', () => {
  test("rows on the workspace's verified domains go there; others go to the default domain, said once per domain", async () => {
    const dave = await createAccount(server, { plan: 'unlimited' });
    await verifiedDomain(dave, dns, 'dave.example');
    const file = [
      'id,slug,short_url,destination_url,title,tags,external_id,comments,expires_at,expiration_url,click_count,created_at',
      'lnk_a,same,https://dave.example/same,https://example.com/a,A,,,,,,0,2026-01-01T00:00:00.000Z',
      'lnk_b,same,https://sho.rt/same,https://example.com/b,B,,,,,,0,2026-01-01T00:00:00.000Z',
      'lnk_c,other,https://elsewhere.example/other,https://example.com/c,C,,,,,,0,2026-01-01T00:00:00.000Z',
      'lnk_d,more,https://elsewhere.example/more,https://example.com/d,D,,,,,,0,2026-01-01T00:00:00.000Z',
    ].join('\n');
    const response = await dave.call('POST', '/links/import', file, { 'content-type': 'text/csv' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ created: 4, refused: 0 });
    expect(response.body.notes).toEqual([expect.stringContaining('elsewhere.example')]);
    const links = (await dave.call('GET', '/links?per_page=100')).body.links as { slug: string; domain: string }[];
    expect(links.map((one) => `${one.domain}/${one.slug}`).sort()).toEqual([
      'dave.example/same',
      'sho.rt/more',
      'sho.rt/other',
      'sho.rt/same',
    ]);
    // The export names each link's domain in its short_url, which the import reads back.
    const exported = await fetch(`${server.api}/links/export`, { headers: { authorization: `Bearer ${dave.key}` } });
    expect(await exported.text()).toContain('https://dave.example/same');
  });

  test("Kutt's rows: one naming a verified domain goes there, Kutt's own domain goes to the default, said once", async () => {
    const erin = await createAccount(server, { plan: 'unlimited' });
    await verifiedDomain(erin, dns, 'erin.example');
    const kutt = (address: string, domain: string | null) => ({
      address,
      target: `https://example.com/${address}/${domain}`,
      created_at: '2024-03-05T14:22:10.000Z',
      password: false,
      banned: false,
      domain,
      link: `https://${domain ?? 'kutt.it'}/${address}`,
    });
    const file = JSON.stringify({
      total: 4,
      data: [kutt('twin', 'erin.example'), kutt('twin', null), kutt('kutt-only', null), kutt('kutt-gone', 'unverified.example')],
    });
    const response = await erin.call('POST', '/links/import', file, { 'content-type': 'application/json' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body, JSON.stringify(response.body)).toMatchObject({ created: 4, refused: 0 });
    expect(response.body.notes).toHaveLength(2);
    expect(response.body.notes).toEqual(
      expect.arrayContaining([expect.stringContaining('kutt.it'), expect.stringContaining('unverified.example')]),
    );
    const links = (await erin.call('GET', '/links?per_page=100')).body.links as { slug: string; domain: string }[];
    expect(links.map((one) => `${one.domain}/${one.slug}`).sort()).toEqual([
      'erin.example/twin',
      'sho.rt/kutt-gone',
      'sho.rt/kutt-only',
      'sho.rt/twin',
    ]);
  });
});
