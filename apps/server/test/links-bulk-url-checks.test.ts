import { setTimeout as sleep } from 'node:timers/promises';
import type { UrlReputation } from '@shortlinks/api/destinations';
import { BULK_URL_CHECK_ROUNDS, BULK_URL_CHECKS_AT_ONCE, placesFor } from '@shortlinks/api/services';
import { LIMITS } from '@shortlinks/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { countRows, createAccount, createLink, inDays, startTestServer, type TestAccount, type TestServer } from './harness.ts';

/**
 * Bulk calls against a slow URL safety service: every check takes CHECK_MS, well within what
 * REPUTATION_TIMEOUT_MS allows, and the connection's idle timeout is scaled down with it (the
 * production ones are 1.5 s and 60 s). A bulk call must still answer, with every item's result.
 */
const CHECK_MS = 300;
/** Room, beyond the checks themselves, for 100 items' transactions on a busy machine. */
const SLACK_MS = 2_500;
/** What env.ts requires of the idle timeout, scaled to CHECK_MS: the longest a bulk call waits on its checks, and more. */
const IDLE_MS = BULK_URL_CHECK_ROUNDS * CHECK_MS + SLACK_MS;

/** A reputation service that takes CHECK_MS per URL, flags URLs holding `flag-me`, and says what it was asked. */
class SlowReputation implements UrlReputation {
  readonly provider = 'slow-test-service';
  asked: string[] = [];
  running = 0;
  mostAtOnce = 0;

  async check(url: string) {
    this.asked.push(url);
    this.running += 1;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.running);
    await sleep(CHECK_MS);
    this.running -= 1;
    return url.includes('flag-me') ? { flagged: true as const, reason: 'flagged by the test' } : { flagged: false as const };
  }

  timesAsked(url: string) {
    return this.asked.filter((asked) => asked === url).length;
  }
}

const reputation = new SlowReputation();
let server: TestServer;
let account: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ reputation, connectionLimits: { idleMs: IDLE_MS, requestMs: 2_000, headersMs: 1_000 } });
  account = await createAccount(server, { plan: 'unlimited' });
});
afterAll(() => server.close());
beforeEach(() => {
  reputation.asked = [];
  reputation.mostAtOnce = 0;
});

let made = 0;
const newBody = (extra: Record<string, unknown> = {}) => {
  made += 1;
  return { title: `Checked ${made}`, destination_url: `https://example.com/checked/${made}`, ...extra };
};
const liveLinks = () => countRows(server, 'link', `account_id = '${account.account.id}' and deleted_at is null`);

describe('POST /links/bulk with a slow URL safety service', () => {
  test('links whose checks one after the other would outlast the idle timeout: all answered, each created', async () => {
    const count = Math.ceil(IDLE_MS / CHECK_MS) + 4;
    const before = await liveLinks();
    const bodies = Array.from({ length: count }, () => newBody());
    const response = await account.call('POST', '/links/bulk', { links: bodies });

    expect(response.status).toBe(201);
    expect(response.body.succeeded).toBe(count);
    expect(response.body.results.map((result: { link: { destination_url: string } }) => result.link.destination_url)).toEqual(
      bodies.map((body) => body.destination_url),
    );
    expect(await liveLinks()).toBe(before + count);
  });

  test(`the worst case, ${LIMITS.bulkItems} items each with a destination and a fallback of its own, fits ${BULK_URL_CHECK_ROUNDS} checks' time, ${BULK_URL_CHECKS_AT_ONCE} at a time`, async () => {
    const bodies = Array.from({ length: LIMITS.bulkItems }, () => {
      const body = newBody();
      return { ...body, expires_at: inDays(1), expiration_url: `${body.destination_url}/gone` };
    });
    const started = Date.now();
    const response = await account.call('POST', '/links/bulk', { links: bodies });

    expect(response.status).toBe(201);
    expect(response.body.succeeded).toBe(LIMITS.bulkItems);
    expect(reputation.asked).toHaveLength(2 * LIMITS.bulkItems);
    expect(reputation.mostAtOnce).toBe(BULK_URL_CHECKS_AT_ONCE);
    expect(Date.now() - started).toBeLessThan(IDLE_MS);
  });

  test(`items with rules and previews (23 URLs each) still fit ${BULK_URL_CHECK_ROUNDS} checks' time: the places grow with the URLs present`, async () => {
    // Enough items that 16 places would need more rounds (30 × 23 / 16 = 44), few enough for a busy machine's transactions.
    const items = 30;
    const bodies = Array.from({ length: items }, () => {
      const body = newBody();
      return {
        ...body,
        expires_at: inDays(1),
        expiration_url: `${body.destination_url}/gone`,
        rules: Array.from({ length: 20 }, (_, i) => ({ if: { country: 'DE' }, destination_url: `${body.destination_url}/rule/${i}` })),
        preview: { title: 'Preview', image_url: `${body.destination_url}/image.png` },
      };
    });
    const urls = 23 * items;
    const started = Date.now();
    const response = await account.call('POST', '/links/bulk', { links: bodies });

    expect(response.status).toBe(201);
    expect(response.body.succeeded).toBe(items);
    expect(reputation.asked).toHaveLength(urls);
    // What the call needs and no more: its checks in at most BULK_URL_CHECK_ROUNDS rounds.
    expect(reputation.mostAtOnce).toBe(placesFor(urls));
    expect(Date.now() - started).toBeLessThan(IDLE_MS);
  });

  test('a single call with 20 rules asks every URL together: one check’s time, and the first refused rule is named', async () => {
    const rules = Array.from({ length: 20 }, (_, i) => ({
      if: { country: 'FR' },
      destination_url: `https://example.com/checked/single/${i}${i === 7 || i === 12 ? '/flag-me' : ''}`,
    }));
    const refused = await account.call('POST', '/links', newBody({ rules }));
    expect(refused.status).toBe(422);
    expect(refused.body.field).toBe('rules[7].destination_url');
    expect(reputation.mostAtOnce).toBe(21);
  });

  test('a URL named by several items is checked once', async () => {
    const shared = 'https://example.com/checked/shared';
    const response = await account.call('POST', '/links/bulk', {
      links: Array.from({ length: 10 }, () =>
        newBody({ destination_url: shared, expires_at: inDays(1), expiration_url: `${shared}/gone` }),
      ),
    });

    expect(response.body.succeeded).toBe(10);
    expect(reputation.timesAsked(shared)).toBe(1);
    expect(reputation.timesAsked(`${shared}/gone`)).toBe(1);
  });

  test('each item refused by a URL check gets its single call’s status and error, in request order', async () => {
    await createLink(account, { slug: 'checked-taken' });
    const items = [
      newBody(),
      newBody({ destination_url: 'https://example.com/flag-me/1' }),
      newBody({ expires_at: inDays(1), expiration_url: 'https://example.com/flag-me/fallback' }),
      // Both refused: the destination's refusal is the answer, as the single call gives it.
      newBody({ destination_url: 'https://example.com/flag-me/2', expires_at: inDays(1), expiration_url: 'https://example.com/flag-me/3' }),
      newBody({ destination_url: 'ftp://example.com/file' }),
      newBody({ utm: { source: 'flag-me' } }),
      // Checked clean, then refused in its transaction.
      newBody({ slug: 'checked-taken' }),
      newBody(),
    ];
    const response = await account.call('POST', '/links/bulk', { links: items });

    expect(response.status).toBe(207);
    expect(response.body.results.map((result: { index: number; status: number }) => [result.index, result.status])).toEqual([
      [0, 201],
      [1, 422],
      [2, 422],
      [3, 422],
      [4, 422],
      [5, 422],
      [6, 409],
      [7, 201],
    ]);
    for (const [index, item] of items.entries()) {
      const result = response.body.results[index];
      if (result.ok) continue;
      const single = await account.call('POST', '/links', item);
      expect({ status: result.status, error: result.error }, `item ${index}`).toEqual({ status: single.status, error: single.body });
    }
    expect(response.body.results[3].error.field).toBe('destination_url');
  });
});

describe('PATCH /links/bulk with a slow URL safety service', () => {
  test('its one change is checked once for every link named, and every link answered', async () => {
    const links = await Promise.all(Array.from({ length: 20 }, () => createLink(account)));
    reputation.asked = [];
    const destination = 'https://example.com/checked/moved';
    const response = await account.call('PATCH', '/links/bulk', {
      ids: links.map((link) => link.id),
      changes: { destination_url: destination, expires_at: inDays(1), expiration_url: `${destination}/gone` },
    });

    expect(response.status).toBe(200);
    expect(response.body.succeeded).toBe(20);
    expect(reputation.asked.sort()).toEqual([destination, `${destination}/gone`]);
  });

  test('a refused change is every link’s refusal, as PATCH /links/{id} gives it', async () => {
    const link = await createLink(account);
    const changes = { destination_url: 'https://example.com/flag-me/moved' };
    const response = await account.call('PATCH', '/links/bulk', { ids: [link.id, 'lnk_unknown'], changes });
    const single = await account.call('PATCH', `/links/${link.id}`, changes);

    expect(response.status).toBe(422);
    for (const result of response.body.results)
      expect({ status: result.status, error: result.error }).toEqual({ status: 422, error: single.body });
  });
});

describe('an import', () => {
  test('asks the URL safety service as a bulk call does: a few URLs at a time, each once', async () => {
    // 40 rows, 20 destinations: before, a batch of 500 rows asked for all of its URLs at once.
    const rows = Array.from({ length: 40 }, (_, i) => ({
      row: i + 2,
      link: { slug: `import-checked-${i}`, destination_url: `https://example.com/imported/${i % 20}`, title: `Imported ${i}` },
    }));
    const result = await server.services.linkImport.import(account.account.id, rows);
    expect(result).toMatchObject({ created: 40, refused: 0 });
    expect(reputation.mostAtOnce).toBeGreaterThan(1);
    expect(reputation.mostAtOnce).toBeLessThanOrEqual(BULK_URL_CHECKS_AT_ONCE);
    for (let i = 0; i < 20; i++) expect(reputation.timesAsked(`https://example.com/imported/${i}`)).toBe(1);
  });
});
