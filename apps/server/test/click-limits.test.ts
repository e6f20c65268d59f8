import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BROWSER_USER_AGENT, createAccount, createLink, startTestServer, type TestAccount, type TestServer } from './harness.ts';

/**
 * Issue #30's click limits: exact with concurrent visitors on several instances of one database,
 * then the link behaves as expired; bots and HEAD take none of the redirects.
 */

let first: TestServer;
let second: TestServer;
let alice: TestAccount;

beforeAll(async () => {
  first = await startTestServer();
  second = await startTestServer({ databaseUrl: first.databaseUrl });
  alice = await createAccount(first);
});
afterAll(async () => {
  await second.close();
  await first.close();
});

const visit = (server: TestServer, slug: string, userAgent = BROWSER_USER_AGENT, method = 'GET') =>
  fetch(`${server.origin}/${slug}`, { method, redirect: 'manual', headers: { 'user-agent': userAgent } });

async function clickCount(id: string): Promise<number> {
  await first.services.clicks.flush();
  await second.services.clicks.flush();
  const rows = await first.orm.em.fork().getConnection().execute(`select click_count from link where id = '${id}'`);
  return Number((rows[0] as { click_count: string }).click_count);
}

describe('max_clicks', () => {
  test('200 concurrent visits across two instances never redirect more than the limit', async () => {
    const link = await createLink(alice, { slug: 'limited-200', max_clicks: 37, destination_url: 'https://example.com/limited' });
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, index) => visit(index % 2 === 0 ? first : second, 'limited-200').then((response) => response.status)),
    );
    expect(answers.filter((status) => status === 302)).toHaveLength(37);
    expect(answers.filter((status) => status === 410)).toHaveLength(163);
    expect(await clickCount(link.id)).toBe(37);
  }, 60_000);

  test('past the limit the link goes to its expiration_url, without counting; bots and HEAD take none', async () => {
    const link = await createLink(alice, {
      slug: 'limited-3',
      max_clicks: 3,
      expires_at: Date.now() + 86_400_000,
      expiration_url: 'https://example.com/over',
    });
    expect((await visit(first, 'limited-3', 'Googlebot/2.1 (+http://www.google.com/bot.html)')).status).toBe(302);
    expect((await visit(first, 'limited-3', BROWSER_USER_AGENT, 'HEAD')).status).toBe(302);
    for (let visitNumber = 0; visitNumber < 3; visitNumber++) {
      expect((await visit(second, 'limited-3')).headers.get('location')).toBe(link.destination_url);
    }
    const over = await visit(first, 'limited-3');
    expect(over.status).toBe(302);
    expect(over.headers.get('location')).toBe('https://example.com/over');
    expect((await visit(first, 'limited-3', 'Googlebot/2.1 (+http://www.google.com/bot.html)')).headers.get('location')).toBe(
      'https://example.com/over',
    );
    expect(await clickCount(link.id)).toBe(3);
    // Raising the limit lets visits through again; removing it puts the link back on the plain path.
    expect((await alice.call('PATCH', `/links/${link.id}`, { max_clicks: 4 })).status).toBe(200);
    expect((await visit(second, 'limited-3')).headers.get('location')).toBe(link.destination_url);
    expect((await visit(second, 'limited-3')).headers.get('location')).toBe('https://example.com/over');
    expect((await alice.call('PATCH', `/links/${link.id}`, { max_clicks: null })).status).toBe(200);
    expect((await visit(first, 'limited-3')).headers.get('location')).toBe(link.destination_url);
  });

  test('a limit set on a link that already has clicks counts them', async () => {
    const link = await createLink(alice, { slug: 'limited-later' });
    for (let visitNumber = 0; visitNumber < 2; visitNumber++) expect((await visit(first, 'limited-later')).status).toBe(302);
    expect(await clickCount(link.id)).toBe(2);
    expect((await alice.call('PATCH', `/links/${link.id}`, { max_clicks: 3 })).status).toBe(200);
    expect((await visit(first, 'limited-later')).status).toBe(302);
    expect((await visit(second, 'limited-later')).status).toBe(410);
  });
});
