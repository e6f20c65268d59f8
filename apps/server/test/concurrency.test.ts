import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ApiResponse, countRows, createAccount, startTestServer, type TestServer } from './harness.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** `n` requests started together (real HTTP, all in flight at once). */
function together(n: number, request: (i: number) => Promise<ApiResponse>): Promise<ApiResponse[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => request(i)));
}

const statuses = (responses: ApiResponse[]) => responses.map((response) => response.status);
const withStatus = (responses: ApiResponse[], status: number) => responses.filter((response) => response.status === status);

/** SQL string literal (the values here are test-made, but quote them properly anyway). */
const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

describe('concurrent requests over HTTP', () => {
  test('20 concurrent upserts of the same new destination create exactly one link', async () => {
    const account = await createAccount(server);
    const destination = 'https://example.com/race/upsert?x=1';
    const responses = await together(20, (i) =>
      account.call('POST', '/links/upsert', { title: `Upsert ${i}`, destination_url: destination, utm: { campaign: 'race' } }),
    );

    const created = withStatus(responses, 201);
    const matched = withStatus(responses, 200);
    expect(created, `statuses: ${statuses(responses)}`).toHaveLength(1);
    expect(matched).toHaveLength(19);
    expect(created[0]?.body.created).toBe(true);
    for (const response of matched) expect(response.body.created).toBe(false);

    const ids = new Set(responses.map((response) => response.body.id));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^lnk_/);
    const finalDestination = 'https://example.com/race/upsert?x=1&utm_campaign=race';
    for (const response of responses) expect(response.body.destination_url).toBe(finalDestination);

    expect(
      await countRows(
        server,
        'link',
        `account_id = ${literal(account.account.id)} and deleted_at is null and destination_url = ${literal(finalDestination)}`,
      ),
    ).toBe(1);
    expect(await countRows(server, 'link', `account_id = ${literal(account.account.id)}`)).toBe(1);
    const list = await account.call('GET', '/links');
    expect(list.body.total).toBe(1);
  });

  test('20 concurrent creates with link_limit 5: exactly 5 succeed, the rest are 403 LINK_LIMIT_REACHED', async () => {
    const account = await createAccount(server, { link_limit: 5 });
    const responses = await together(20, (i) =>
      account.call('POST', '/links', { title: `L${i}`, destination_url: `https://example.com/limit/${i}` }),
    );

    expect(withStatus(responses, 201), `statuses: ${statuses(responses)}`).toHaveLength(5);
    const refused = withStatus(responses, 403);
    expect(refused).toHaveLength(15);
    for (const response of refused) expect(response.body.code).toBe('LINK_LIMIT_REACHED');

    expect(await countRows(server, 'link', `account_id = ${literal(account.account.id)} and deleted_at is null`)).toBe(5);
    expect(await countRows(server, 'link', `account_id = ${literal(account.account.id)}`)).toBe(5);
    const list = await account.call('GET', '/links');
    expect(list.body).toMatchObject({ total: 5, link_limit: 5 });
  });

  test('concurrent creates naming one new tag each with tag_limit 3: exactly 3 succeed, the rest are 403 PLAN_LIMIT_REACHED and save nothing', async () => {
    const account = await createAccount(server, { tag_limit: 3 });
    const responses = await together(10, (i) =>
      account.call('POST', '/links', { title: `T${i}`, destination_url: `https://example.com/tags/${i}`, tag_names: [`tag-${i}`] }),
    );

    const succeeded = withStatus(responses, 201);
    const refused = responses.filter((response) => response.status !== 201);
    expect(succeeded, `statuses: ${statuses(responses)}`).toHaveLength(3);
    for (const response of refused) {
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('PLAN_LIMIT_REACHED');
    }

    const accountId = literal(account.account.id);
    expect(await countRows(server, 'tag', `account_id = ${accountId}`)).toBe(3);
    // A refused request saved no link (and no tag, checked above).
    expect(await countRows(server, 'link', `account_id = ${accountId}`)).toBe(succeeded.length);
    expect(await countRows(server, 'link_tag', `link_id in (select id from link where account_id = ${accountId})`)).toBe(3);
    // The tags that exist are exactly those of the successful links.
    const tags = await account.call('GET', '/tags');
    expect(tags.body.tag_limit).toBe(3);
    const tagNames = tags.body.tags.map((tag: { name: string }) => tag.name).sort();
    const linkTagNames = succeeded.flatMap((response) => response.body.tags.map((tag: { name: string }) => tag.name));
    expect(tagNames).toEqual(linkTagNames.sort());
    for (const tag of tags.body.tags) expect(tag.link_count).toBe(1);
  });

  test('concurrent creates naming two new tags each with tag_limit 3: never more than 3 tags, failures save nothing', async () => {
    const account = await createAccount(server, { tag_limit: 3 });
    const responses = await together(10, (i) =>
      account.call('POST', '/links', {
        title: `T${i}`,
        destination_url: `https://example.com/pairs/${i}`,
        tag_names: [`pair-${i}-a`, `pair-${i}-b`],
      }),
    );

    const succeeded = withStatus(responses, 201);
    for (const response of responses.filter((response) => response.status !== 201)) {
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('PLAN_LIMIT_REACHED');
    }
    // Two new tags per request and room for three: exactly one request fits.
    expect(succeeded, `statuses: ${statuses(responses)}`).toHaveLength(1);
    const accountId = literal(account.account.id);
    const tagCount = await countRows(server, 'tag', `account_id = ${accountId}`);
    expect(tagCount).toBeLessThanOrEqual(3);
    expect(tagCount).toBe(2 * succeeded.length);
    expect(await countRows(server, 'link', `account_id = ${accountId}`)).toBe(succeeded.length);
  });

  test('10 concurrent creates with the same custom slug from two accounts: one 201, the rest 409 SLUG_TAKEN (never 500)', async () => {
    const alice = await createAccount(server);
    const bob = await createAccount(server);
    const slug = 'race-slug';
    const responses = await together(10, (i) =>
      (i % 2 === 0 ? alice : bob).call('POST', '/links', { title: `S${i}`, destination_url: `https://example.com/slug/${i}`, slug }),
    );

    expect(withStatus(responses, 201), `statuses: ${statuses(responses)}`).toHaveLength(1);
    const conflicts = withStatus(responses, 409);
    expect(conflicts).toHaveLength(9);
    for (const response of conflicts) expect(response.body.code).toBe('SLUG_TAKEN');
    expect(responses.every((response) => response.status < 500)).toBe(true);
    expect(await countRows(server, 'link', `slug = ${literal(slug)} and deleted_at is null`)).toBe(1);
    expect(await countRows(server, 'link', `account_id in (${literal(alice.account.id)}, ${literal(bob.account.id)})`)).toBe(1);
  });

  test('concurrent POST /tags with the same name in different case: one 201, the rest 409 TAG_NAME_TAKEN', async () => {
    const account = await createAccount(server);
    const names = ['Promo', 'promo', 'PROMO', 'pRoMo', 'PrOmO', 'promO', 'Promo', 'PROmo', 'prOMO', 'proMO'];
    const responses = await together(names.length, (i) => account.call('POST', '/tags', { name: names[i] }));

    const created = withStatus(responses, 201);
    expect(created, `statuses: ${statuses(responses)}`).toHaveLength(1);
    const conflicts = withStatus(responses, 409);
    expect(conflicts).toHaveLength(names.length - 1);
    for (const response of conflicts) expect(response.body.code).toBe('TAG_NAME_TAKEN');
    expect(await countRows(server, 'tag', `account_id = ${literal(account.account.id)}`)).toBe(1);
    const tags = await account.call('GET', '/tags');
    expect(tags.body.tags).toEqual([created[0]?.body]);
  });

  test('concurrent creates with the same external_id: one 201, the rest 409 EXTERNAL_ID_TAKEN', async () => {
    const account = await createAccount(server);
    const responses = await together(10, (i) =>
      account.call('POST', '/links', { title: `E${i}`, destination_url: `https://example.com/ext/${i}`, external_id: 'crm-race' }),
    );

    const created = withStatus(responses, 201);
    expect(created, `statuses: ${statuses(responses)}`).toHaveLength(1);
    const conflicts = withStatus(responses, 409);
    expect(conflicts).toHaveLength(9);
    for (const response of conflicts) expect(response.body.code).toBe('EXTERNAL_ID_TAKEN');
    expect(await countRows(server, 'link', `account_id = ${literal(account.account.id)}`)).toBe(1);
    const fetched = await account.call('GET', '/links/ext_crm-race');
    expect(fetched.status).toBe(200);
    expect(fetched.body.id).toBe(created[0]?.body.id);
  });
});

describe('concurrent bulk calls hold the limits as single calls do', () => {
  type BulkItem = { ok: boolean; status: number; error?: { code: string }; link?: { id: string; tags: { name: string }[] } };
  const items = (responses: ApiResponse[]): BulkItem[] => responses.flatMap((response) => response.body.results as BulkItem[]);

  test('3 places free, 4 concurrent bulk creates of 5 links and 3 single creates: exactly 3 created, every other item 403 LINK_LIMIT_REACHED', async () => {
    const account = await createAccount(server, { link_limit: 10 });
    for (let i = 0; i < 7; i++) {
      expect((await account.call('POST', '/links', { title: `Old ${i}`, destination_url: `https://example.com/old/${i}` })).status).toBe(
        201,
      );
    }
    const responses = await together(7, (i) =>
      i < 4
        ? account.call('POST', '/links/bulk', {
            links: Array.from({ length: 5 }, (_, j) => ({
              title: `B${i}.${j}`,
              destination_url: `https://example.com/bulk-limit/${i}/${j}`,
            })),
          })
        : account.call('POST', '/links', { title: `S${i}`, destination_url: `https://example.com/single-limit/${i}` }),
    );
    const bulks = responses.slice(0, 4);
    const singles = responses.slice(4);

    const all = [
      ...items(bulks),
      ...singles.map((response) =>
        response.status === 201 ? { ok: true, status: 201 } : { ok: false, status: response.status, error: response.body },
      ),
    ];
    expect(all).toHaveLength(23);
    const created = all.filter((item) => item.ok);
    expect(created, `statuses: ${all.map((item) => item.status)}`).toHaveLength(3);
    for (const item of all.filter((item) => !item.ok)) expect(item).toMatchObject({ status: 403, error: { code: 'LINK_LIMIT_REACHED' } });
    // Each bulk answer's status says whether all, some or none of its items were created.
    for (const response of bulks) {
      const { succeeded, failed } = response.body;
      expect(response.status).toBe(failed === 0 ? 201 : succeeded === 0 ? 422 : 207);
    }

    const accountId = literal(account.account.id);
    expect(await countRows(server, 'link', `account_id = ${accountId} and deleted_at is null`)).toBe(10);
    expect(await countRows(server, 'link', `account_id = ${accountId}`)).toBe(10);
    expect((await account.call('GET', '/links')).body).toMatchObject({ total: 10, link_limit: 10 });
  });

  test('tag_limit 3, concurrent bulk creates naming one new tag per item: exactly 3 tags, the other items 403 PLAN_LIMIT_REACHED and save nothing', async () => {
    const account = await createAccount(server, { tag_limit: 3 });
    const responses = await together(4, (i) =>
      account.call('POST', '/links/bulk', {
        links: Array.from({ length: 3 }, (_, j) => ({
          title: `T${i}.${j}`,
          destination_url: `https://example.com/bulk-tags/${i}/${j}`,
          tag_names: [`bulk-tag-${i}-${j}`],
        })),
      }),
    );

    const all = items(responses);
    const created = all.filter((item) => item.ok);
    expect(created, `statuses: ${all.map((item) => item.status)}`).toHaveLength(3);
    for (const item of all.filter((item) => !item.ok)) expect(item).toMatchObject({ status: 403, error: { code: 'PLAN_LIMIT_REACHED' } });

    const accountId = literal(account.account.id);
    expect(await countRows(server, 'tag', `account_id = ${accountId}`)).toBe(3);
    expect(await countRows(server, 'link', `account_id = ${accountId}`)).toBe(3);
    const tags = (await account.call('GET', '/tags')).body.tags.map((tag: { name: string }) => tag.name).sort();
    expect(tags).toEqual(created.flatMap((item) => item.link?.tags.map((tag) => tag.name) ?? []).sort());
  });

  test('concurrent bulk deletes of the same links: each link deleted once, the other answer 404 for it', async () => {
    const account = await createAccount(server);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await account.call('POST', '/links', { title: `D${i}`, destination_url: `https://example.com/bulk-delete/${i}` })).body.id);
    }
    const responses = await together(4, () => account.call('DELETE', `/links/bulk?ids=${ids.join(',')}`));
    const all = items(responses);
    expect(all.filter((item) => item.ok)).toHaveLength(5);
    for (const item of all.filter((item) => !item.ok)) expect(item).toMatchObject({ status: 404, error: { code: 'LINK_NOT_FOUND' } });
    expect(await countRows(server, 'link', `account_id = ${literal(account.account.id)} and deleted_at is null`)).toBe(0);
  });
});
