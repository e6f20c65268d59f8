import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type ApiResponse, countRows, createAccount, createLink, startTestServer, type TestAccount, type TestServer } from './harness.ts';

/**
 * A tag deleted while a link write is attaching it. The deletion is held open in a transaction
 * of its own so that the request meets it at a known point: the outcome must be the spec's
 * TAG_NOT_FOUND (the tag is gone), never a foreign-key failure surfacing as a 500.
 */

let server: TestServer;
let alice: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  alice = await createAccount(server);
});
afterAll(() => server.close());

/** Runs `request` while another transaction has deleted `tagId` but not committed, then commits. */
async function duringTagDeletion(tagId: string, request: () => Promise<ApiResponse>): Promise<ApiResponse> {
  const deleter = new pg.Client({ connectionString: server.databaseUrl });
  await deleter.connect();
  try {
    await deleter.query('begin');
    await deleter.query('delete from tag where id = $1', [tagId]);
    const pending = request();
    // Wait until the request is blocked by the uncommitted deletion, then let the deletion win.
    const deadline = Date.now() + 5000;
    for (;;) {
      const { rows } = await deleter.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
      );
      if ((rows[0]?.n ?? 0) > 0) break;
      if (Date.now() > deadline) throw new Error('the request never waited for the deletion');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await deleter.query('commit');
    return await pending;
  } finally {
    await deleter.end();
  }
}

describe('a tag deleted while a link write attaches it', () => {
  test.each([
    [
      'POST /links with tag_ids',
      (tagId: string) => alice.call('POST', '/links', { title: 'x', destination_url: 'https://example.com/', tag_ids: [tagId] }),
    ],
    [
      'POST /links with tag_names',
      (_tagId: string, name: string) =>
        alice.call('POST', '/links', { title: 'x', destination_url: 'https://example.com/', tag_names: [name] }),
    ],
  ])('%s: 404 TAG_NOT_FOUND or a link with a fresh tag, never a 500', async (_how, request) => {
    const name = `racing-${Math.random().toString(36).slice(2)}`;
    const tag = (await alice.call('POST', '/tags', { name })).body;
    const response = await duringTagDeletion(tag.id, () => request(tag.id, name));
    expect(response.status).not.toBe(500);
    if (response.status === 201) {
      // tag_names found no tag of that name any more: a new one was created.
      expect(response.body.tags).toEqual([expect.objectContaining({ name })]);
      expect(response.body.tags[0].id).not.toBe(tag.id);
    } else {
      expect(response.body.code).toBe('TAG_NOT_FOUND');
    }
  });

  test('PATCH /links/{id} with tag_ids: 404 TAG_NOT_FOUND, and the link keeps its tags', async () => {
    const kept = (await alice.call('POST', '/tags', { name: 'kept' })).body;
    const link = await createLink(alice, { tag_ids: [kept.id] });
    const doomed = (await alice.call('POST', '/tags', { name: 'doomed' })).body;
    const response = await duringTagDeletion(doomed.id, () => alice.call('PATCH', `/links/${link.id}`, { tag_ids: [doomed.id] }));
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('TAG_NOT_FOUND');
    expect((await alice.call('GET', `/links/${link.id}`)).body.tags).toEqual([expect.objectContaining({ id: kept.id })]);
    expect(await countRows(server, 'link_tag', `tag_id = '${doomed.id}'`)).toBe(0);
  });
});
