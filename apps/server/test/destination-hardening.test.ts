import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ApiResponse, countRows, createAccount, inDays, startTestServer, type TestAccount, type TestServer } from './harness.ts';

let server: TestServer;
let alice: TestAccount;

beforeAll(async () => {
  // The harness's default: short domain https://sho.rt, URL_DENYLIST of flagged.example.
  server = await startTestServer();
  alice = await createAccount(server, { plan: 'unlimited' });
});
afterAll(() => server.close());

let counter = 0;
const fresh = () => `https://example.com/hardening/${++counter}`;

function expectRefused(response: ApiResponse, field: string) {
  expect(response.status, response.text).toBe(422);
  expect(response.body).toEqual({ code: 'VALIDATION_ERROR', message: expect.any(String), field });
}

type Send = (account: TestAccount, url: string) => Promise<ApiResponse>;

/** Every write that takes a destination or expiration URL, and the field it answers on. */
const writes: [string, Send, 'destination_url' | 'expiration_url'][] = [
  ['POST /links destination_url', (a, url) => a.call('POST', '/links', { title: 'x', destination_url: url }), 'destination_url'],
  [
    'POST /links destination_url with utm',
    (a, url) => a.call('POST', '/links', { title: 'x', destination_url: url, utm: { source: 'mail' } }),
    'destination_url',
  ],
  [
    'POST /links/upsert destination_url',
    (a, url) => a.call('POST', '/links/upsert', { title: 'x', destination_url: url }),
    'destination_url',
  ],
  [
    'POST /links expiration_url',
    (a, url) => a.call('POST', '/links', { title: 'x', destination_url: fresh(), expires_at: inDays(1), expiration_url: url }),
    'expiration_url',
  ],
  [
    'PATCH /links destination_url',
    async (a, url) => {
      const link = (await a.call('POST', '/links', { title: 'x', destination_url: fresh() })).body;
      return a.call('PATCH', `/links/${link.id}`, { destination_url: url });
    },
    'destination_url',
  ],
  [
    'PATCH /links expiration_url',
    async (a, url) => {
      const link = (await a.call('POST', '/links', { title: 'x', destination_url: fresh(), expires_at: inDays(1) })).body;
      return a.call('PATCH', `/links/${link.id}`, { expiration_url: url });
    },
    'expiration_url',
  ],
];

/** Links (live or not) whose destination or fallback mentions `text`. */
const linksMentioning = (text: string) =>
  countRows(server, 'link', `position('${text}' in destination_url) > 0 or position('${text}' in coalesce(expiration_url, '')) > 0`);

describe('URLs that browsers and other URL parsers read differently are refused', () => {
  // The report: WHATWG reads host attacker.example (and "\" as "/"), RFC 3986 clients
  // such as curl read host 127.0.0.1 with userinfo "attacker.example\".
  test.each(writes)("the issue's backslash URL on %s: 422 naming the field, nothing saved", async (_where, send, field) => {
    const response = await send(alice, 'http://attacker.example\\@127.0.0.1:18999/admin');
    expectRefused(response, field);
    expect(response.body.message).toContain('backslash');
    expect(await linksMentioning('127.0.0.1')).toBe(0);
  });

  test.each(writes)(
    'a backslash hiding a denylisted host (good.example\\@flagged.example) on %s is refused',
    async (_where, send, field) => {
      const response = await send(alice, 'https://good.example\\@flagged.example/offer');
      expectRefused(response, field);
      expect(await linksMentioning('flagged.example')).toBe(0);
    },
  );

  test.each([
    ['a backslash before the host', 'http:/\\example.com/'],
    ['a backslash ending the host', 'https://example.com\\@evil.example/'],
    ['a backslash in the path', 'https://example.com/a\\b'],
    ['an empty authority', 'http:///example.com/page'],
    ['an empty userinfo', 'https://@example.com/'],
    ['userinfo with a percent-encoded @', 'https://good.example%40@example.com/'],
    ['a percent-encoded host', 'https://exa%6Dple.com/'],
    ['a hexadecimal IPv4 address', 'http://0x08080808/'],
    ['a decimal IPv4 address', 'http://134744072/'],
    ['a shortened IPv4 address', 'http://8.8.2056/'],
    ['an IPv4 address with a trailing dot', 'http://8.8.8.8./'],
  ])('%s is refused on every URL field: %s', async (_why, url) => {
    for (const [where, send, field] of writes) {
      const response = await send(alice, url);
      expect(response.status, `${where}: ${response.text}`).toBe(422);
      expect(response.body.field).toBe(field);
    }
  });

  test('the message says how browsers read the URL, so the sender can send that form instead', async () => {
    const hex = await alice.call('POST', '/links', { title: 'x', destination_url: 'http://0x08080808/dns' });
    expectRefused(hex, 'destination_url');
    expect(hex.body.message).toContain('http://8.8.8.8/dns');
    const triple = await alice.call('POST', '/links', { title: 'x', destination_url: 'http:///example.com/page' });
    expect(triple.body.message).toContain('http://example.com/page');
    const path = await alice.call('POST', '/links', { title: 'x', destination_url: 'https://example.com/a\\b' });
    expect(path.body.message).toContain('https://example.com/a/b');
  });
});

describe('ordinary URLs are still stored exactly as sent, and the redirect sends exactly that', () => {
  test.each([
    'https://example.com/page?x=1',
    'https://example.com',
    'HTTPS://Example.COM:443/a/./b/../c?q=50%&next=https://example.org/#top',
    'https://example.com/search?q=C:\\Users#frag\\x',
    'http://8.8.8.8/dns',
    'https://[2001:4860:4860::8888]/',
    'https://example.com//double//slashes',
  ])('%s', async (url) => {
    const response = await alice.call('POST', '/links', { title: 'x', destination_url: url });
    expect(response.status, response.text).toBe(201);
    expect(response.body.destination_url).toBe(url);
    const visit = await fetch(`${server.origin}/${response.body.slug}`, { redirect: 'manual' });
    expect(visit.status).toBe(302);
    expect(visit.headers.get('location')).toBe(url);
  });
});

describe('denylist URL prefixes match regardless of scheme, escapes, repeated slashes and path case', () => {
  beforeAll(async () => {
    await server.services.denylist.add('https://files.example/phish');
  });

  test.each([
    'https://files.example/phish',
    'https://files.example/./phish',
    'https://FILES.example:443/phish?x',
    'http://files.example/phish',
    'https://files.example/%70hish',
    'https://files.example//phish',
    'https://files.example/PHISH',
    'https://files.example/a/../phish/login',
    'https://files.example///%70%48ish//kit',
    'http://files.example:80/Phish',
  ])('refuses %s', async (url) => {
    expectRefused(await alice.call('POST', '/links', { title: 'x', destination_url: url }), 'destination_url');
  });

  test.each(['https://files.example/photos', 'https://files.example/', 'https://files.example/a/phish', 'https://www.files.example/phish'])(
    'still accepts %s',
    async (url) => {
      expect((await alice.call('POST', '/links', { title: 'x', destination_url: url })).status).toBe(201);
    },
  );

  test('a check is one query, and it reads the denylist through its indexes only', async () => {
    const query = server.services.denylist.lookup('https://files.example/phish/kit').compile();
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      await client.query('begin');
      // A handful of rows would be scanned whole anyway; forbidding that shows whether an index can serve.
      await client.query('set local enable_seqscan = off');
      const { rows } = await client.query(`explain (format json) ${query.sql}`, [...query.parameters]);
      await client.query('rollback');
      const plan = JSON.stringify(rows[0]['QUERY PLAN']);
      expect(plan).not.toContain('Seq Scan');
      expect(plan).toContain('denylist_entry_kind_value_key');
      expect(plan).toContain('denylist_entry_prefix_authority_idx');
    } finally {
      await client.end();
    }
  });

  test('an entry stored before this change (as the CLI stored it) keeps refusing, under the new matching too', async () => {
    await server.orm.em
      .fork()
      .getConnection()
      .execute(`insert into denylist_entry (kind, value) values ('prefix', 'https://old.example/Kit%2Dv1')`);
    for (const url of ['https://old.example/Kit%2Dv1/x', 'http://old.example/kit-v1', 'https://old.example//KIT-V1']) {
      expectRefused(await alice.call('POST', '/links', { title: 'x', destination_url: url }), 'destination_url');
    }
    expect((await alice.call('POST', '/links', { title: 'x', destination_url: 'https://old.example/kit-v2' })).status).toBe(201);
  });
});

describe('names that lead back to the short domain or into private networks are refused', () => {
  test.each([
    ['a subdomain of the short domain', 'https://www.sho.rt/'],
    ['a deeper subdomain of the short domain', 'https://a.b.SHO.RT./x'],
    ['a Cyrillic look-alike of the short domain', 'https://ѕho.rt/'],
    ['a look-alike in punycode', 'https://xn--ho-doc.rt/'],
    ['a look-alike with a digit for a letter', 'https://sh0.rt/'],
    ['a subdomain of a look-alike', 'https://www.ѕhо.rt/'],
    ['an mDNS name', 'https://foo.local/'],
    ['a home network name', 'https://printer.home.arpa/'],
    ['an .internal name', 'https://x.internal/'],
    ['a Kubernetes service', 'https://kubernetes.default.svc/'],
    ['a Kubernetes cluster name', 'https://api.default.svc.cluster.local/'],
    ['a .corp name', 'https://foo.corp/'],
    ['a .home name', 'https://printer.home/'],
    ['a .lan name', 'https://nas.lan/'],
    ['a .mail name', 'https://webmail.mail/'],
    ['a .private name', 'https://router.private/'],
    ['an .intranet name', 'https://wiki.intranet/'],
    ['a .localdomain name', 'https://box.localdomain/'],
    ['an .invalid name', 'https://nothing.invalid/'],
    ['a reverse-DNS name', 'https://1.0.0.127.in-addr.arpa/'],
  ])('%s: %s', async (_why, url) => {
    for (const [where, send, field] of writes) {
      const response = await send(alice, url);
      expect(response.status, `${where}: ${response.text}`).toBe(422);
      expect(response.body.field).toBe(field);
    }
  });

  test.each([
    'https://sho.rt.example.com/',
    'https://notsho.rt/',
    'https://shop.rt/',
    'https://home.example.com/',
    'https://mail.google.com/',
    'https://corp.example.org/local',
    'https://www.example/',
    'https://site.test/',
    'https://duckduckgogg42xjoc72x3sjasowoarfbgcmvfimaftt6twagswzczad.onion/',
  ])('still accepts %s', async (url) => {
    expect((await alice.call('POST', '/links', { title: 'x', destination_url: url })).status).toBe(201);
  });
});
