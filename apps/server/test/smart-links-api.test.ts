import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAccount, createLink, getLink, startTestServer, type TestAccount, type TestServer } from './harness.ts';

/**
 * Issue #30's link fields over the API: password (write-only), max_clicks, rules and preview,
 * present only when set, on create, PATCH, upsert and bulk; bad input is 422 with its field and
 * changes nothing.
 */

let server: TestServer;
let alice: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ denylist: ['flagged.example'] });
  alice = await createAccount(server);
});
afterAll(() => server.close());

const storedHash = async (id: string) => {
  const rows = await server.orm.em.fork().getConnection().execute(`select password_hash from link where id = '${id}'`);
  return (rows[0] as { password_hash: string | null }).password_hash;
};

describe('smart link fields', () => {
  test('a link without them shows none of them', async () => {
    const link = await createLink(alice, { title: 'Plain' });
    for (const field of ['password', 'password_protected', 'max_clicks', 'rules', 'preview']) expect(link).not.toHaveProperty(field);
  });

  test('create: password is write-only and stored as argon2id; the others are shown as set, utm merged into rules', async () => {
    const link = await createLink(alice, {
      password: 'hunter22',
      max_clicks: 5,
      utm: { source: 'news' },
      rules: [{ if: { device: 'mobile', country: 'de' }, destination_url: 'https://example.com/mobile' }],
      preview: { title: 'Spring', description: 'All new', image_url: 'https://example.com/spring.png' },
    });
    expect(link.password_protected).toBe(true);
    expect(link).not.toHaveProperty('password');
    expect(link.max_clicks).toBe(5);
    expect(link.rules).toEqual([
      { if: { device: 'mobile', country: 'DE' }, destination_url: 'https://example.com/mobile?utm_source=news' },
    ]);
    expect(link.preview).toEqual({ title: 'Spring', description: 'All new', image_url: 'https://example.com/spring.png' });
    const hash = await storedHash(link.id);
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(hash).not.toContain('hunter22');
    expect(await getLink(alice, link.id)).toEqual(link);
    const listed = await alice.call('GET', '/links?per_page=100');
    expect(listed.body.links.find((item: { id: string }) => item.id === link.id)).toEqual(link);
  });

  test('PATCH sets and removes each with null; omitted ones stay', async () => {
    const link = await createLink(alice, { password: 'first-pass', max_clicks: 3 });
    const changed = await alice.call('PATCH', `/links/${link.id}`, {
      rules: [{ if: { language: 'fr' }, destination_url: 'https://example.com/fr' }],
      preview: { title: 'T' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ password_protected: true, max_clicks: 3, preview: { title: 'T' } });
    const removed = await alice.call('PATCH', `/links/${link.id}`, { password: null, max_clicks: null, rules: null, preview: null });
    expect(removed.status).toBe(200);
    for (const field of ['password_protected', 'max_clicks', 'rules', 'preview']) expect(removed.body).not.toHaveProperty(field);
    expect(await storedHash(link.id)).toBeNull();
  });

  test('upsert and bulk create carry them', async () => {
    const upserted = await alice.call('POST', '/links/upsert', {
      title: 'Up',
      destination_url: 'https://example.com/upserted',
      max_clicks: 9,
    });
    expect(upserted.status).toBe(201);
    expect(upserted.body.max_clicks).toBe(9);
    const again = await alice.call('POST', '/links/upsert', {
      title: 'Up',
      destination_url: 'https://example.com/upserted',
      password: 'abcd',
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: false, max_clicks: 9, password_protected: true });
    const bulk = await alice.call('POST', '/links/bulk', {
      links: [
        { title: 'B1', destination_url: 'https://example.com/b1', preview: { description: 'd' } },
        {
          title: 'B2',
          destination_url: 'https://example.com/b2',
          rules: [{ if: { os: 'Nope' }, destination_url: 'https://flagged.example/x' }],
        },
      ],
    });
    expect(bulk.body.results[0].link.preview).toEqual({ description: 'd' });
    expect(bulk.body.results[1]).toMatchObject({
      ok: false,
      status: 422,
      error: { code: 'VALIDATION_ERROR', field: 'rules[0].destination_url' },
    });
  });

  test.each([
    [{ password: 'abc' }, 'password'],
    [{ password: 'x'.repeat(129) }, 'password'],
    [{ max_clicks: 0 }, 'max_clicks'],
    [{ max_clicks: 1_000_000_001 }, 'max_clicks'],
    [{ max_clicks: 1.5 }, 'max_clicks'],
    [{ rules: Array.from({ length: 21 }, () => ({ if: { device: 'mobile' }, destination_url: 'https://example.com/' })) }, 'rules'],
    [
      {
        rules: [
          { if: { device: 'mobile' }, destination_url: 'https://example.com/' },
          { if: { os: 'iOS' }, destination_url: 'https://example.com/' },
          { if: { country: 'ZZ' }, destination_url: 'https://example.com/' },
        ],
      },
      'rules[2].if.country',
    ],
    [{ rules: [{ if: { device: 'watch' }, destination_url: 'https://example.com/' }] }, 'rules[0].if.device'],
    [{ rules: [{ if: { language: 'fr;q=1' }, destination_url: 'https://example.com/' }] }, 'rules[0].if.language'],
    [{ rules: [{ if: { city: 'Berlin' }, destination_url: 'https://example.com/' }] }, 'rules[0].if.city'],
    [{ rules: [{ if: {}, destination_url: 'https://example.com/' }] }, 'rules[0].if'],
    [{ rules: [{ if: { device: 'mobile' }, destination_url: 'ftp://example.com/' }] }, 'rules[0].destination_url'],
    [{ rules: [{ if: { device: 'mobile' }, destination_url: 'http://127.0.0.1/' }] }, 'rules[0].destination_url'],
    [{ rules: [{ if: { device: 'mobile' }, destination_url: 'https://flagged.example/' }] }, 'rules[0].destination_url'],
    [{ rules: [{ if: { after: 5, before: 4 }, destination_url: 'https://example.com/' }] }, 'rules[0].if.after'],
    [{ preview: { image_url: 'javascript:alert(1)' } }, 'preview.image_url'],
    [{ preview: { image_url: 'http://10.0.0.1/x.png' } }, 'preview.image_url'],
    [{ preview: { image_url: 'https://flagged.example/x.png' } }, 'preview.image_url'],
    [{ preview: {} }, 'preview'],
  ])('bad input %j is 422 with field %s and saves nothing', async (fields, field) => {
    const destination = `https://example.com/refused/${Math.random()}`;
    const response = await alice.call('POST', '/links', { title: 'Bad', destination_url: destination, ...fields });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'VALIDATION_ERROR', field });
    const listed = await alice.call('GET', '/links?per_page=100');
    expect(listed.body.links.some((link: { destination_url: string }) => link.destination_url === destination)).toBe(false);
  });

  test('a bad PATCH changes nothing', async () => {
    const link = await createLink(alice, { max_clicks: 4 });
    const response = await alice.call('PATCH', `/links/${link.id}`, { max_clicks: 7, preview: { image_url: 'http://localhost/a.png' } });
    expect(response.status).toBe(422);
    expect(response.body.field).toBe('preview.image_url');
    expect((await getLink(alice, link.id)).max_clicks).toBe(4);
  });
});

describe('export and import carry the smart fields', () => {
  async function exported(account: TestAccount, format: 'csv' | 'jsonl') {
    const response = await fetch(`${server.api}/links/export?format=${format}&search=round-trip`, {
      headers: { authorization: `Bearer ${account.key}` },
    });
    expect(response.status).toBe(200);
    return response.text();
  }

  async function imported(account: TestAccount, file: string, format: 'csv' | 'jsonl') {
    const response = await fetch(`${server.api}/links/import?format=shortlinks-${format}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${account.key}`, 'content-type': format === 'csv' ? 'text/csv' : 'application/jsonl' },
      body: file,
    });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    return JSON.parse(text);
  }

  test.each(['csv', 'jsonl'] as const)(
    '%s: a link exported by one account is imported by another with its password, limit, rules and preview',
    async (format) => {
      const slug = `round-trip-${format}`;
      const original = await createLink(alice, {
        slug,
        title: 'round-trip',
        password: 'round-pass',
        max_clicks: 12,
        rules: [{ if: { query: { a: '"b,c"' } }, destination_url: 'https://example.com/rule' }],
        preview: { title: '=1+1, "quoted"', description: 'Tab-free, comma, "quote"' },
      });
      const file = await exported(alice, format);
      expect(file).not.toContain('round-pass');
      const bob = await createAccount(server);
      await alice.call('DELETE', `/links/${original.id}`);
      const report = await imported(bob, file, format);
      expect(report).toMatchObject({ created: 1, refused: 0 });
      const copy = (await bob.call('GET', `/links?search=${slug}`)).body.links[0];
      expect(copy).toMatchObject({ slug, password_protected: true, max_clicks: 12, rules: original.rules, preview: original.preview });
      const password = await fetch(`${server.origin}/${slug}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'password=round-pass',
      });
      expect(password.status).toBe(302);
    },
  );

  test('an import refuses a bad smart field with its field, and a password_hash that is not argon2id', async () => {
    const lines = [
      JSON.stringify({ destination_url: 'https://example.com/i1', slug: 'imp-bad-1', max_clicks: 0 }),
      JSON.stringify({
        destination_url: 'https://example.com/i2',
        slug: 'imp-bad-2',
        rules: [{ if: { country: 'QQ' }, destination_url: 'https://example.com/' }],
      }),
      JSON.stringify({ destination_url: 'https://example.com/i3', slug: 'imp-bad-3', password_hash: 'plaintext' }),
      JSON.stringify({ destination_url: 'https://example.com/i4', slug: 'imp-bad-4', preview: { image_url: 'http://127.0.0.1/x.png' } }),
    ].join('\n');
    const report = await imported(alice, lines, 'jsonl');
    expect(report.refused).toBe(4);
    expect(report.refusals.map((refusal: { field: string }) => refusal.field)).toEqual([
      'max_clicks',
      'rules[0].if.country',
      'password_hash',
      'preview.image_url',
    ]);
  });
});
