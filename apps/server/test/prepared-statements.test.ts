import { createOrm, type Database, type Orm } from '@shortlinks/db';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDatabase } from './harness.ts';

/** docs/performance.md: every parameterised statement that names its columns is prepared once per connection. */
describe('prepared statements', () => {
  let orm: Orm;
  let db: Kysely<Database>;

  beforeAll(async () => {
    // One connection, so every query below runs on the session whose statements are listed.
    orm = await createOrm({ databaseUrl: await createTestDatabase(), poolSize: 1 });
    db = orm.em.getConnection().getClient<Database>();
  });
  afterAll(() => orm.close());

  const prepared = async () =>
    ((await orm.em.getConnection().execute('select statement from pg_prepared_statements')) as { statement: string }[]).map(
      (row) => row.statement,
    );

  test('a query with parameters is prepared once, whatever its values', async () => {
    for (const id of ['acc_a', 'acc_b', 'acc_c']) await db.selectFrom('account').select(['id', 'plan']).where('id', '=', id).execute();
    const statements = (await prepared()).filter((text) => text.includes('from "account"'));
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain('where "id" = $1');
  });

  test('a statement taking all columns (`select *`) is not prepared: a column added later must not break it', async () => {
    await db.selectFrom('tag').selectAll().where('id', '=', 'tag_x').execute();
    expect((await prepared()).filter((text) => text.includes('from "tag"'))).toEqual([]);
    expect(
      await db
        .selectFrom('tag')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('id', '=', 'tag_x')
        .execute(),
    ).toHaveLength(1);
    expect((await prepared()).filter((text) => text.includes('count(*)'))).toHaveLength(1);
  });

  test('a star that multiplies (`* 1000`) is no `select *`: the link reads are prepared', async () => {
    const reads = [
      db.selectFrom('link').select(sql<number>`floor(extract(epoch from "created_at") * 1000)`.as('ms')).where('id', '=', 'lnk_x'),
      db.selectFrom('link as l').selectAll('l').where('l.id', '=', 'lnk_y'),
      db.selectFrom('link').select('id').select(sql`1`.as('one')).where('slug', '=', 'returning_star_is_text'),
    ];
    for (const read of reads) await read.execute();
    const statements = await prepared();
    expect(statements.filter((text) => text.includes('* 1000'))).toHaveLength(1);
    // `"l".*` takes all columns, like `select *`.
    expect(statements.filter((text) => text.includes('"l".*'))).toEqual([]);
    expect(statements.filter((text) => text.includes('as "one"'))).toHaveLength(1);
  });
});
