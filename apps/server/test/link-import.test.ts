import type { ImportedLink, ImportOptions, ImportRow, RowProblem, RowRefusal } from '@shortlinks/api/services';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { countRows, createAccount, startTestServer, type TestAccount, type TestServer } from './harness.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Rows as a file gives them, numbered from 2 (after a header row). */
const rowsOf = (...links: (ImportedLink | { problem: RowProblem })[]) =>
  links.map((item, i): ImportRow => ('problem' in item ? { row: i + 2, problem: item.problem } : { row: i + 2, link: item }));

async function importInto(account: TestAccount, rows: ImportRow[], options: ImportOptions = {}) {
  const refused: RowRefusal[] = [];
  const result = await server.services.linkImport.import(account.account.id, rows, { ...options, onRefused: (r) => refused.push(r) });
  return { ...result, refusedRows: refused };
}

/** What the account's live links hold, as the database has them (ids and update times left out). */
async function snapshot(account: TestAccount) {
  const rows = await server.orm.em
    .fork()
    .getConnection()
    .execute(
      `select l.slug, l.destination_url, l.title, l.external_id, l.comments, l.expires_at, l.expiration_url, l.created_at, l.updated_at,
              coalesce((select array_agg(t.name order by t.name) from link_tag lt join tag t on t.id = lt.tag_id where lt.link_id = l.id), '{}') as tags
       from link l where l.account_id = '${account.account.id}' and l.deleted_at is null order by l.slug`,
    );
  return rows as { slug: string; title: string }[];
}

const CREATED = Date.UTC(2024, 0, 15, 9, 30, 0, 123);

describe('importing rows into an account', () => {
  test('keeps slug, external id, tags (created by name, matched ignoring case), expiry, comments and created_at', async () => {
    const alice = await createAccount(server, { plan: 'unlimited' });
    expect((await alice.call('POST', '/tags', { name: 'Existing' })).status).toBe(201);
    const past = Date.UTC(2025, 5, 1);
    const result = await importInto(
      alice,
      rowsOf(
        {
          slug: 'kept-slug',
          destination_url: 'https://example.com/kept',
          title: 'Kept',
          tag_names: ['existing', 'New one'],
          external_id: 'crm-1',
          comments: 'hello',
          expires_at: past,
          expiration_url: 'https://example.com/after',
          created_at: CREATED,
        },
        { destination_url: 'https://example.com/untitled/page' },
      ),
    );
    expect(result).toMatchObject({ read: 2, created: 2, updated: 0, skipped: 0, refused: 0, dryRun: false });
    const kept = await alice.call('GET', '/links/ext_crm-1');
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({
      slug: 'kept-slug',
      destination_url: 'https://example.com/kept',
      title: 'Kept',
      comments: 'hello',
      expires_at: past,
      expiration_url: 'https://example.com/after',
      created_at: CREATED,
    });
    expect(kept.body.tags.map((tag: { name: string }) => tag.name)).toEqual(['Existing', 'New one']);
    expect(await countRows(server, 'tag', `account_id = '${alice.account.id}'`)).toBe(2);
    // A row without a title is titled after its destination; without a slug it gets a random one.
    const list = await alice.call('GET', '/links');
    const untitled = list.body.links.find((link: { title: string }) => link.title === 'example.com/untitled/page');
    expect(untitled.slug).toMatch(/^[A-Za-z0-9_-]{6}$/);
    // Its redirect works at the kept slug (expired, so its fallback).
    const visit = await fetch(`${server.origin}/kept-slug`, { redirect: 'manual' });
    expect(visit.headers.get('location')).toBe('https://example.com/after');
  });

  test('a second run changes nothing: skip (the default) leaves every existing link as it was', async () => {
    const alice = await createAccount(server, { plan: 'unlimited' });
    const rows = rowsOf(
      { slug: 'again-1', destination_url: 'https://example.com/1', title: 'One', tag_names: ['T'] },
      { slug: 'again-2', destination_url: 'https://example.com/2', title: 'Two', external_id: 'x-2' },
    );
    expect(await importInto(alice, rows)).toMatchObject({ created: 2 });
    const before = await snapshot(alice);
    const second = await importInto(alice, rows);
    expect(second).toMatchObject({ read: 2, created: 0, updated: 0, skipped: 2, refused: 0 });
    expect(await snapshot(alice)).toEqual(before);
    // A changed row is skipped too: skip never touches an existing link.
    const changed = await importInto(alice, rowsOf({ slug: 'again-1', destination_url: 'https://example.com/changed', title: 'New' }));
    expect(changed).toMatchObject({ skipped: 1, created: 0 });
    expect(await snapshot(alice)).toEqual(before);
  });

  test('update applies the row to the link its slug or external id names, keeps what the row does not carry, and is idempotent', async () => {
    const alice = await createAccount(server, { plan: 'unlimited' });
    await importInto(
      alice,
      rowsOf(
        { slug: 'up-1', destination_url: 'https://example.com/1', title: 'One', comments: 'keep me', tag_names: ['Old'] },
        { slug: 'up-2', destination_url: 'https://example.com/2', title: 'Two', external_id: 'ext-2' },
      ),
    );
    const rows = rowsOf(
      { slug: 'up-1', destination_url: 'https://example.com/1-new', title: 'One new', tag_names: ['Fresh'] },
      // Matched by external id: its slug stays the link's own.
      { slug: 'other-slug', destination_url: 'https://example.com/2', title: 'Two', external_id: 'ext-2' },
    );
    const first = await importInto(alice, rows, { onConflict: 'update' });
    expect(first).toMatchObject({ updated: 1, unchanged: 1, created: 0, refused: 0 });
    const one = await alice.call('GET', '/links?per_page=10');
    const byslug = Object.fromEntries(one.body.links.map((link: { slug: string }) => [link.slug, link]));
    expect(byslug['up-1']).toMatchObject({ destination_url: 'https://example.com/1-new', title: 'One new', comments: 'keep me' });
    expect(byslug['up-1'].tags.map((tag: { name: string }) => tag.name)).toEqual(['Fresh']);
    expect(byslug['other-slug']).toBeUndefined();
    const before = await snapshot(alice);
    const second = await importInto(alice, rows, { onConflict: 'update' });
    expect(second).toMatchObject({ updated: 0, unchanged: 2, created: 0 });
    expect(await snapshot(alice)).toEqual(before);
  });

  test('fail stops at the first conflict and changes nothing, not even the rows before it', async () => {
    const alice = await createAccount(server, { plan: 'unlimited' });
    await importInto(alice, rowsOf({ slug: 'taken-here', destination_url: 'https://example.com/t', title: 'T' }));
    const before = await snapshot(alice);
    const result = await importInto(
      alice,
      rowsOf(
        { slug: 'new-before', destination_url: 'https://example.com/n', title: 'N', tag_names: ['Made before the stop'] },
        { slug: 'taken-here', destination_url: 'https://example.com/t2', title: 'T2' },
        { slug: 'new-after', destination_url: 'https://example.com/a', title: 'A' },
      ),
      { onConflict: 'fail' },
    );
    expect(result.stoppedAt).toMatchObject({ row: 3, code: 'SLUG_TAKEN', field: 'slug' });
    expect(result.refusedRows).toEqual([result.stoppedAt]);
    expect(await snapshot(alice)).toEqual(before);
    expect(await countRows(server, 'tag', `account_id = '${alice.account.id}'`)).toBe(0);
  });

  test('a dry run reports what an import would do and writes nothing', async () => {
    const alice = await createAccount(server, { plan: 'starter', link_limit: 3 });
    await importInto(alice, rowsOf({ slug: 'dry-existing', destination_url: 'https://example.com/e', title: 'E' }));
    const before = await snapshot(alice);
    const rows = rowsOf(
      { slug: 'dry-existing', destination_url: 'https://example.com/e', title: 'E' },
      { slug: 'dry-1', destination_url: 'https://example.com/1', title: '1', tag_names: ['Dry'] },
      { slug: 'dry-2', destination_url: 'https://example.com/2', title: '2' },
      { slug: 'dry-3', destination_url: 'https://example.com/3', title: '3' },
    );
    // Small batches: the link limit still counts the rows a dry run "created" in earlier batches.
    const dry = await importInto(alice, rows, { dryRun: true, batchSize: 2 });
    expect(dry).toMatchObject({ dryRun: true, read: 4, created: 2, skipped: 1, refused: 1 });
    expect(dry.refusedRows).toEqual([{ row: 5, code: 'LINK_LIMIT_REACHED', message: expect.any(String), field: undefined }]);
    expect(await snapshot(alice)).toEqual(before);
    expect(await countRows(server, 'tag', `account_id = '${alice.account.id}'`)).toBe(0);
    // The real import does what the dry run said.
    const real = await importInto(alice, rows, { batchSize: 2 });
    expect(real).toMatchObject({ dryRun: false, created: 2, skipped: 1, refused: 1 });
  });

  test('each refused row is reported with its row number and the API code, and undoes nothing of the others', async () => {
    const alice = await createAccount(server, { plan: 'unlimited' });
    const bob = await createAccount(server, { plan: 'unlimited' });
    expect((await bob.call('POST', '/links', { title: 'Bob', destination_url: 'https://example.com/bob', slug: 'bobs-slug' })).status).toBe(
      201,
    );
    const result = await importInto(
      alice,
      rowsOf(
        { slug: 'fine-1', destination_url: 'https://example.com/1', title: '1' },
        { problem: { code: 'PASSWORD_PROTECTED', message: 'the link is password-protected' } },
        { slug: 'bad slug!', destination_url: 'https://example.com/2', title: '2' },
        { slug: 'bobs-slug', destination_url: 'https://example.com/3', title: '3', tag_names: ['Orphan?'] },
        { slug: 'flagged', destination_url: 'https://flagged.example/x', title: '4' },
        { slug: 'future', destination_url: 'https://example.com/5', title: '5', created_at: Date.now() + 86_400_000 },
        { slug: 'no-expiry', destination_url: 'https://example.com/6', title: '6', expiration_url: 'https://example.com/f' },
        { slug: 'dup-ext-a', destination_url: 'https://example.com/7', title: '7', external_id: 'dup' },
        { slug: 'fine-2', destination_url: 'https://example.com/8', title: '8' },
      ),
    );
    expect(result).toMatchObject({ read: 9, created: 3, refused: 6 });
    expect(result.refusedRows.map(({ row, code, field }) => ({ row, code, field }))).toEqual([
      { row: 3, code: 'PASSWORD_PROTECTED', field: undefined },
      { row: 4, code: 'SLUG_INVALID', field: 'slug' },
      { row: 5, code: 'SLUG_TAKEN', field: 'slug' },
      { row: 6, code: 'VALIDATION_ERROR', field: 'destination_url' },
      { row: 7, code: 'VALIDATION_ERROR', field: 'created_at' },
      { row: 8, code: 'VALIDATION_ERROR', field: 'expiration_url' },
    ]);
    expect((await snapshot(alice)).map((link) => link.slug)).toEqual(['dup-ext-a', 'fine-1', 'fine-2']);
    // The row refused for its slug created no tag.
    expect(await countRows(server, 'tag', `account_id = '${alice.account.id}'`)).toBe(0);
  });

  test('the tag limit refuses the row that would pass it, creating neither its link nor its tags', async () => {
    const alice = await createAccount(server, { plan: 'starter', tag_limit: 2 });
    const result = await importInto(
      alice,
      rowsOf(
        { slug: 'tags-1', destination_url: 'https://example.com/1', title: '1', tag_names: ['A', 'B'] },
        { slug: 'tags-2', destination_url: 'https://example.com/2', title: '2', tag_names: ['a', 'C'] },
        { slug: 'tags-3', destination_url: 'https://example.com/3', title: '3', tag_names: ['b'] },
      ),
    );
    expect(result).toMatchObject({ created: 2, refused: 1 });
    expect(result.refusedRows[0]).toMatchObject({ row: 3, code: 'PLAN_LIMIT_REACHED' });
    expect((await snapshot(alice)).map((link) => link.slug)).toEqual(['tags-1', 'tags-3']);
    expect(await countRows(server, 'tag', `account_id = '${alice.account.id}'`)).toBe(2);
  });
});

describe('a file that names a link twice', () => {
  test.each(['skip', 'update', 'fail'] as const)(
    '%s: a second, different row for the same slug or external id is refused, naming the first; the first stays',
    async (onConflict) => {
      // Shlink, Kutt and Bitly keep a slug per domain; the import keeps none, so two links can meet.
      const alice = await createAccount(server, { plan: 'unlimited' });
      const [twice, other, another] = ['twice', 'other', 'another'].map((slug) => `${slug}-${onConflict}`);
      const result = await importInto(
        alice,
        rowsOf(
          { slug: twice, destination_url: 'https://a.example/promo', title: 'On a', tag_names: ['A', 'B'] },
          { slug: twice, destination_url: 'https://b.example/promo', title: 'On b', tag_names: ['B', 'C'] },
          { slug: other, external_id: 'crm-1', destination_url: 'https://example.com/1', title: 'One' },
          { slug: another, external_id: 'crm-1', destination_url: 'https://example.com/2', title: 'Two' },
        ),
        { onConflict },
      );
      const first = {
        row: 3,
        code: 'SLUG_TAKEN',
        field: 'slug',
        message: `The slug "${twice}" already names the link imported from row 2, which differs`,
      };
      if (onConflict === 'fail') {
        expect(result).toMatchObject({ created: 0, refused: 1, stoppedAt: first });
        expect(await snapshot(alice)).toEqual([]);
        return;
      }
      expect(result).toMatchObject({ read: 4, created: 2, updated: 0, refused: 2 });
      expect(result.refusedRows).toEqual([
        first,
        {
          row: 5,
          code: 'EXTERNAL_ID_TAKEN',
          field: 'external_id',
          message: 'external_id "crm-1" already names the link imported from row 4, which differs',
        },
      ]);
      const links = await snapshot(alice);
      expect(links).toMatchObject([
        { slug: other, destination_url: 'https://example.com/1' },
        { slug: twice, title: 'On a', destination_url: 'https://a.example/promo', tags: ['A', 'B'] },
      ]);
    },
  );

  test.each([
    ['skip', 'skipped'],
    ['update', 'unchanged'],
    ['fail', 'skipped'],
  ] as const)('%s: the same link listed twice is made once, the second row counted %s', async (onConflict, counted) => {
    const alice = await createAccount(server, { plan: 'unlimited' });
    const slug = `listed-twice-${onConflict}`;
    const row = { slug, destination_url: 'https://example.com/t', title: 'T', tag_names: ['X'] };
    const result = await importInto(alice, rowsOf(row, { ...row, tag_names: ['x'] }, { slug, destination_url: row.destination_url }), {
      onConflict,
    });
    expect(result).toMatchObject({ created: 1, refused: 0, [counted]: 2 });
    expect(await snapshot(alice)).toMatchObject([{ slug, tags: ['X'] }]);
  });
});

describe('rows without slug or external id', () => {
  test('are matched by their destination, as POST /links/upsert matches: a second run makes no second link', async () => {
    const alice = await createAccount(server, { plan: 'unlimited' });
    const rows = rowsOf(
      { destination_url: 'https://example.com/no-slug', title: 'No slug' },
      { destination_url: 'https://example.com/also-no-slug?utm_source=x' },
    );
    expect(await importInto(alice, rows)).toMatchObject({ created: 2, refused: 0 });
    const before = await snapshot(alice);
    expect(await importInto(alice, rows)).toMatchObject({ created: 0, skipped: 2, refused: 0 });
    expect(await importInto(alice, rows, { onConflict: 'update' })).toMatchObject({ created: 0, unchanged: 2, refused: 0 });
    expect(await snapshot(alice)).toEqual(before);
    // update applies a new title to the link with that destination; fail stops there.
    const retitled = rowsOf({ destination_url: 'https://example.com/no-slug', title: 'Retitled' });
    expect(await importInto(alice, retitled, { onConflict: 'update' })).toMatchObject({ updated: 1 });
    expect((await snapshot(alice)).map((link) => link.title).sort()).toEqual(['Retitled', 'example.com/also-no-slug?utm_source=x']);
    const failed = await importInto(alice, retitled, { onConflict: 'fail' });
    expect(failed.stoppedAt).toMatchObject({ row: 2, code: 'LINK_EXISTS', field: 'destination_url' });
  });
});

describe('fail without a conflict', () => {
  test('imports every row, as skip would', async () => {
    const alice = await createAccount(server, { plan: 'unlimited' });
    const result = await importInto(
      alice,
      rowsOf(
        { slug: 'cf-1', destination_url: 'https://example.com/1', title: 'One', tag_names: ['T'] },
        { slug: 'cf-2', destination_url: 'https://example.com/2', title: 'Two' },
      ),
      { onConflict: 'fail' },
    );
    expect(result).toMatchObject({ read: 2, created: 2, refused: 0 });
    expect(result.stoppedAt).toBeUndefined();
    expect((await snapshot(alice)).map((link) => link.slug)).toEqual(['cf-1', 'cf-2']);
    // Running servers heard of them: the redirect works at once.
    const visit = await fetch(`${server.origin}/cf-1`, { redirect: 'manual' });
    expect(visit.headers.get('location')).toBe('https://example.com/1');
  });
});

describe('update and the fallback URL', () => {
  test("a row with an expiry and no fallback keeps the link's fallback, as a PATCH with expires_at alone does", async () => {
    const alice = await createAccount(server, { plan: 'unlimited' });
    const soon = Date.now() + 86_400_000;
    await importInto(
      alice,
      rowsOf({
        slug: 'keeps-fallback',
        destination_url: 'https://example.com/x',
        expires_at: soon,
        expiration_url: 'https://example.com/after',
      }),
    );
    const later = soon + 86_400_000;
    const result = await importInto(
      alice,
      rowsOf({ slug: 'keeps-fallback', destination_url: 'https://example.com/x', expires_at: later }),
      {
        onConflict: 'update',
      },
    );
    expect(result).toMatchObject({ updated: 1 });
    const link = (await alice.call('GET', '/links')).body.links[0];
    expect(link).toMatchObject({ expires_at: later, expiration_url: 'https://example.com/after' });
  });
});
