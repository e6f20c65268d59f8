import { LIMITS } from '@shortlinks/contract';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startDnsServer, type TestDnsServer } from './dns-server.ts';
import { visitHost } from './domain-visits.ts';
import { type ApiResponse, createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';

let dns: TestDnsServer;
let server: TestServer;
let alice: TestAccount;
let bob: TestAccount;

beforeAll(async () => {
  dns = await startDnsServer();
  server = await startTestServer({ dnsServers: [dns.address] });
  alice = await createAccount(server, { plan: 'unlimited' });
  bob = await createAccount(server, { plan: 'unlimited' });
});
afterAll(async () => {
  await server.close();
  await dns.close();
});

interface DomainBody {
  id: string;
  name: string;
  verified: boolean;
  status: string;
  status_reason: string | null;
  verification: { type: string; name: string; value: string; error?: string };
  is_default: boolean;
  root_redirect_url: string | null;
  not_found_url: string | null;
}

function expectError(response: ApiResponse, status: number, code: string, field?: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.code).toBe(code);
  if (field !== undefined) expect(response.body.field).toBe(field);
}

async function addDomain(account: TestAccount, name: string): Promise<DomainBody> {
  const response = await account.call('POST', '/domains', { name });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as DomainBody;
}

/** Publishes the domain's record on the test's DNS server and verifies it. */
async function verified(account: TestAccount, name: string): Promise<DomainBody> {
  const domain = await addDomain(account, name);
  dns.txt.set(domain.verification.name, [domain.verification.value]);
  const response = await account.call('POST', `/domains/${domain.id}/verify`);
  expect(response.status).toBe(200);
  expect(response.body.verified).toBe(true);
  return response.body as DomainBody;
}

describe('POST /domains', () => {
  test('answers 201 with the TXT record to set, not verified', async () => {
    const response = await alice.call('POST', '/domains', { name: 'go.acme.example' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      id: expect.stringMatching(/^dom_/),
      name: 'go.acme.example',
      verified: false,
      status: 'pending',
      verification: { type: 'TXT', name: '_shortlinks.go.acme.example', value: expect.stringMatching(/^shortlinks-verify=.{16,}/) },
      root_redirect_url: null,
      not_found_url: null,
      is_default: false,
      created_at: expect.any(Number),
    });
    const listed = await alice.call('GET', '/domains');
    expect(listed.body.domains.map((domain: DomainBody) => domain.name)).toContain('go.acme.example');
    expect((await bob.call('GET', '/domains')).body).toEqual({ domains: [], server_domain: 'sho.rt' });
  });

  test('lower-cases the name, drops a trailing dot and stores an internationalised name as punycode', async () => {
    expect((await addDomain(alice, 'Links.Shop.Example.')).name).toBe('links.shop.example');
    expect((await addDomain(alice, 'go.bücher.example')).name).toBe('go.xn--bcher-kva.example');
  });

  test.each([
    ['an IPv4 address', '203.0.113.7'],
    ['an IPv6 address', '[2001:db8::1]'],
    ['localhost', 'localhost'],
    ['a name under localhost', 'app.localhost'],
    ['a .local name', 'printer.local'],
    ['an .internal name', 'go.corp.internal'],
    ['a single label', 'intranet'],
    ['the short domain', 'sho.rt'],
    ['a subdomain of the short domain', 'go.sho.rt'],
    ['a URL', 'https://go.acme.example/'],
    ['a name with a port', 'go.acme.example:8080'],
    ['a label starting with a hyphen', '-go.acme.example'],
    ['a wildcard', '*.acme.example'],
    ['an empty name', '   '],
  ])('refuses %s: 422 on name, nothing added', async (_what, name) => {
    const before = (await alice.call('GET', '/domains')).body.domains.length;
    expectError(await alice.call('POST', '/domains', { name }), 422, 'VALIDATION_ERROR', 'name');
    expect((await alice.call('GET', '/domains')).body.domains.length).toBe(before);
  });

  test('a name the workspace already added is DOMAIN_TAKEN', async () => {
    await addDomain(alice, 'twice.example');
    expectError(await alice.call('POST', '/domains', { name: 'TWICE.example' }), 409, 'DOMAIN_TAKEN', 'name');
  });
});

describe('the cap on domains', () => {
  test(`a workspace holds at most ${LIMITS.domainsPerWorkspace} domains: DOMAIN_LIMIT_REACHED, nothing added; deleting one makes room`, async () => {
    const carol = await createAccount(server, { plan: 'unlimited' });
    const added: DomainBody[] = [];
    for (let index = 0; index < LIMITS.domainsPerWorkspace; index++) added.push(await addDomain(carol, `d${index}.carol.example`));
    expectError(await carol.call('POST', '/domains', { name: 'one-more.carol.example' }), 403, 'DOMAIN_LIMIT_REACHED', 'name');
    expect((await carol.call('GET', '/domains')).body.domains).toHaveLength(LIMITS.domainsPerWorkspace);
    // The cap is the workspace's own: another workspace still adds.
    await addDomain(bob, 'one-more.carol.example');
    expect((await carol.call('DELETE', `/domains/${added[0]?.id}`)).status).toBe(204);
    await addDomain(carol, 'one-more.carol.example');
  });
});

describe('POST /domains/{id}/verify', () => {
  test('without a record: verified false, and the error says nothing was found', async () => {
    const domain = await addDomain(alice, 'nothing.acme.example');
    const response = await alice.call('POST', `/domains/${domain.id}/verify`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ verified: false, status: 'pending' });
    expect(response.body.verification.error).toMatch(/No TXT record found at _shortlinks\.nothing\.acme\.example/);
  });

  test('with another value: verified false, and the error names what was found', async () => {
    const domain = await addDomain(alice, 'wrong.acme.example');
    dns.txt.set(domain.verification.name, ['shortlinks-verify=somebody-else', 'v=spf1 -all']);
    const response = await alice.call('POST', `/domains/${domain.id}/verify`);
    expect(response.body.verified).toBe(false);
    expect(response.body.verification.error).toContain('"shortlinks-verify=somebody-else"');
    expect(response.body.verification.error).toContain(domain.verification.value);
    // Kept: GET says the same.
    expect((await alice.call('GET', `/domains/${domain.id}`)).body.verification.error).toBe(response.body.verification.error);
  });

  test('a DNS server failing: verified false, the error says the look-up failed', async () => {
    const domain = await addDomain(alice, 'servfail.acme.example');
    dns.failing.add(domain.verification.name);
    const response = await alice.call('POST', `/domains/${domain.id}/verify`);
    expect(response.body.verified).toBe(false);
    expect(response.body.verification.error).toMatch(/failed/);
  });

  test('with the record: verified, serving, and no error', async () => {
    const domain = await addDomain(alice, 'ok.acme.example');
    dns.txt.set(domain.verification.name, ['unrelated', domain.verification.value]);
    const response = await alice.call('POST', `/domains/${domain.id}/verify`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: domain.id, verified: true, status: 'verified', status_reason: null });
    expect(response.body.verification.error).toBeUndefined();
    expect(server.services.domains.directory.served('ok.acme.example')?.id).toBe(domain.id);
  });

  test("another workspace's domain is DOMAIN_NOT_FOUND, and nothing is looked up for it", async () => {
    const domain = await addDomain(alice, 'private.acme.example');
    expectError(await bob.call('POST', `/domains/${domain.id}/verify`), 404, 'DOMAIN_NOT_FOUND');
    expectError(await bob.call('GET', `/domains/${domain.id}`), 404, 'DOMAIN_NOT_FOUND');
    expectError(await bob.call('PATCH', `/domains/${domain.id}`, { is_default: false }), 404, 'DOMAIN_NOT_FOUND');
    expectError(await bob.call('DELETE', `/domains/${domain.id}`), 404, 'DOMAIN_NOT_FOUND');
    expectError(await alice.call('GET', '/domains/dom_nothing'), 404, 'DOMAIN_NOT_FOUND');
  });
});

describe('one name, several workspaces', () => {
  test('unverified names do not block others; the first to verify wins; then the name is DOMAIN_TAKEN', async () => {
    const mine = await addDomain(alice, 'race.example');
    const theirs = await addDomain(bob, 'race.example');
    dns.txt.set(mine.verification.name, [mine.verification.value, theirs.verification.value]);
    expect((await bob.call('POST', `/domains/${theirs.id}/verify`)).body.verified).toBe(true);
    expectError(await alice.call('POST', `/domains/${mine.id}/verify`), 409, 'DOMAIN_TAKEN', 'name');
    expectError(
      await alice.call('POST', '/domains', { name: 'taken.example' }).then(async () => {
        await verified(bob, 'held.example');
        return alice.call('POST', '/domains', { name: 'held.example' });
      }),
      409,
      'DOMAIN_TAKEN',
      'name',
    );
    // Once deleted, the name is free again.
    const held = (await bob.call('GET', '/domains')).body.domains.find((domain: DomainBody) => domain.name === 'held.example');
    expect((await bob.call('DELETE', `/domains/${held.id}`)).status).toBe(204);
    expect((await alice.call('POST', '/domains', { name: 'held.example' })).status).toBe(201);
  });
});

describe('PATCH /domains/{id}', () => {
  test('only a verified domain can be the default; one default per workspace', async () => {
    const pending = await addDomain(alice, 'pending-default.example');
    expectError(await alice.call('PATCH', `/domains/${pending.id}`, { is_default: true }), 422, 'VALIDATION_ERROR', 'is_default');
    const first = await verified(alice, 'first-default.example');
    const second = await verified(alice, 'second-default.example');
    expect((await alice.call('PATCH', `/domains/${first.id}`, { is_default: true })).body.is_default).toBe(true);
    expect((await alice.call('PATCH', `/domains/${second.id}`, { is_default: true })).body.is_default).toBe(true);
    expect((await alice.call('GET', `/domains/${first.id}`)).body.is_default).toBe(false);
    expect((await alice.call('PATCH', `/domains/${second.id}`, { is_default: false })).body.is_default).toBe(false);
  });

  test('root and not-found redirects follow the destination rules', async () => {
    const domain = await verified(alice, 'redirects.acme.example');
    const set = await alice.call('PATCH', `/domains/${domain.id}`, {
      root_redirect_url: 'https://acme.example/',
      not_found_url: 'https://acme.example/missing',
    });
    expect(set.body).toMatchObject({ root_redirect_url: 'https://acme.example/', not_found_url: 'https://acme.example/missing' });
    for (const url of [
      'http://127.0.0.1/',
      'http://intranet/',
      'https://sho.rt/x',
      'https://redirects.acme.example/loop',
      'ftp://acme.example/',
    ]) {
      expectError(
        await alice.call('PATCH', `/domains/${domain.id}`, { root_redirect_url: url }),
        422,
        'VALIDATION_ERROR',
        'root_redirect_url',
      );
    }
    expectError(
      await alice.call('PATCH', `/domains/${domain.id}`, { not_found_url: 'http://10.0.0.1/' }),
      422,
      'VALIDATION_ERROR',
      'not_found_url',
    );
    const cleared = await alice.call('PATCH', `/domains/${domain.id}`, { root_redirect_url: null });
    expect(cleared.body).toMatchObject({ root_redirect_url: null, not_found_url: 'https://acme.example/missing' });
    expectError(await alice.call('PATCH', `/domains/${domain.id}`, { name: 'other.example' }), 422, 'VALIDATION_ERROR');
  });
});

describe('the periodic re-check', () => {
  test('a record gone keeps serving for 7 days, then the domain stops and says why; back, it serves again', async () => {
    const domain = await verified(alice, 'fading.acme.example');
    const { domains } = server.services;
    const start = Date.now() + 2 * 3_600_000;
    dns.txt.delete(domain.verification.name);
    await domains.recheck(start);
    let now = (await alice.call('GET', `/domains/${domain.id}`)).body;
    expect(now).toMatchObject({ verified: true, status: 'record_missing', record_missing_since: start });
    expect(now.status_reason).toMatch(/stops serving/);
    expect(domains.directory.served('fading.acme.example')).toBeDefined();

    await domains.recheck(start + 8 * 86_400_000);
    now = (await alice.call('GET', `/domains/${domain.id}`)).body;
    expect(now).toMatchObject({ verified: false, status: 'stopped' });
    expect(now.status_reason).toMatch(/not found for 7 days/);
    expect(domains.directory.served('fading.acme.example')).toBeUndefined();

    dns.txt.set(domain.verification.name, [domain.verification.value]);
    await domains.recheck(start + 9 * 86_400_000);
    now = (await alice.call('GET', `/domains/${domain.id}`)).body;
    expect(now).toMatchObject({ verified: true, status: 'verified', record_missing_since: null });
  });

  test('a stopped domain serves nothing: its links 404 by Host, the TLS ask says no, no new link on it; another workspace may verify it', async () => {
    const domain = await verified(alice, 'stopping.acme.example');
    const created = await alice.call('POST', '/links', {
      title: 'T',
      destination_url: 'https://example.com/stopping',
      slug: 'stays',
      domain: domain.name,
    });
    expect(created.status).toBe(201);
    expect((await visitHost(server, domain.name, '/stays')).status).toBe(302);
    const start = Date.now() + 2 * 3_600_000;
    dns.txt.delete(domain.verification.name);
    await server.services.domains.recheck(start);
    await server.services.domains.recheck(start + 8 * 86_400_000);
    expect((await alice.call('GET', `/domains/${domain.id}`)).body).toMatchObject({ status: 'stopped', verified: false });
    expect((await visitHost(server, domain.name, '/stays')).status).toBe(404);
    const ask = await fetch(`${server.origin}/.well-known/shortlinks/tls-ask?domain=${domain.name}`);
    expect(ask.status).toBe(404);
    expectError(
      await alice.call('POST', '/links', { title: 'T', destination_url: 'https://example.com/x', domain: domain.name }),
      422,
      'VALIDATION_ERROR',
      'domain',
    );
    // Its link stays, unserved; the name is free for whoever controls the DNS now.
    expect((await alice.call('GET', `/links/${created.body.id}`)).body.domain).toBe(domain.name);
    const bobs = await verified(bob, domain.name);
    // Even with its own value back beside the new holder's, the first workspace has lost the name.
    dns.txt.set(domain.verification.name, [bobs.verification.value, domain.verification.value]);
    expectError(await alice.call('POST', `/domains/${domain.id}/verify`), 409, 'DOMAIN_TAKEN', 'name');
  });

  test('a domain checked recently is not looked up again before its interval', async () => {
    await verified(alice, 'recent.acme.example');
    const checked = await server.services.domains.recheck(Date.now());
    // Only domains checked over an hour ago: none of those just verified.
    expect(checked).toBe(0);
  });
});
