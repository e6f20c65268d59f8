import { createOrm, type Database, type Orm } from '@shortlinks/db';
import type { Kysely } from 'kysely';
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
});
