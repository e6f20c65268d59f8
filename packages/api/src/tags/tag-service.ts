import type { CreateTagBody, Tag, TagColor, TagList, UpdateTagBody } from '@shortlinks/contract';
import type { Orm } from '@shortlinks/db';
import { effectiveLimits } from '../accounts/plans.ts';
import { type Db, inTransaction, lockAccount, reader, storable } from '../database/database.ts';
import { AppError, validationError } from '../errors.ts';
import { Changes } from '../events/change-log.ts';
import { newId } from '../ids.ts';
import { assertTagRoom, takeRotationColors } from './tag-resolution.ts';

const nameTaken = (name: string) => new AppError('TAG_NAME_TAKEN', `Another tag of the account is named "${name}" (ignoring case)`, 'name');

/** Tags: the rules of the spec's POST/GET/PATCH/DELETE /tags. */
export class TagService {
  readonly #orm: Orm;
  /** Where each change is recorded, in its transaction (events/change-log.ts). */
  readonly #changes: Changes;

  constructor(orm: Orm, changes = new Changes()) {
    this.#orm = orm;
    this.#changes = changes;
  }

  async create(accountId: string, body: CreateTagBody): Promise<Tag> {
    return inTransaction(this.#orm, async (db) => {
      const account = await lockAccount(db, accountId);
      await assertTagRoom(db, account, 1);
      if (await this.#nameUsed(db, accountId, body.name, undefined)) throw nameTaken(body.name);
      const color: TagColor = body.color ?? (await takeRotationColors(db, account, 1))[0] ?? 'indigo';
      const tag = { id: newId('tag'), account_id: accountId, name: body.name, color };
      await db.insertInto('tag').values(tag).execute();
      const created: Tag = { id: tag.id, name: tag.name, color, link_count: 0 };
      await this.#record(db, accountId, 'tag.created', created);
      return created;
    });
  }

  /**
   * The names of `names` no tag of the account has (ignoring case): what a link call's `tag_names`
   * would create. A key without `tags.write` is refused before it writes when this is not empty.
   */
  async namesMissing(accountId: string, names: readonly string[]): Promise<string[]> {
    const lower = [...new Set(names.filter(storable).map((name) => name.toLowerCase()))];
    if (lower.length === 0) return [...names];
    const rows = await reader(this.#orm)
      .selectFrom('tag')
      .select((eb) => eb.fn<string>('lower', ['name']).as('name'))
      .where('account_id', '=', accountId)
      .where((eb) => eb(eb.fn('lower', ['name']), 'in', lower))
      .execute();
    const found = new Set(rows.map((row) => row.name));
    return names.filter((name) => !found.has(name.toLowerCase()));
  }

  /** All tags, newest first, with the number of live links carrying each (deleted links carry none). */
  async list(accountId: string): Promise<TagList> {
    const db = reader(this.#orm);
    const [account, tags] = await Promise.all([
      db
        .selectFrom('account')
        .select(['plan', 'link_limit_override', 'tag_limit_override'])
        .where('id', '=', accountId)
        .executeTakeFirstOrThrow(),
      this.#withLinkCounts(db, accountId).orderBy('tag.created_at', 'desc').orderBy('tag.id', 'desc').execute(),
    ]);
    return { tags: tags.map(toTag), tag_limit: effectiveLimits(account).tag_limit };
  }

  async update(accountId: string, tagId: string, body: UpdateTagBody): Promise<Tag> {
    if (body.name === undefined && body.color === undefined) {
      throw validationError('name', 'Send name, color, or both');
    }
    if (!storable(tagId)) throw new AppError('TAG_NOT_FOUND');
    return inTransaction(this.#orm, async (db) => {
      const current = await db
        .selectFrom('tag')
        .select(['id', 'name', 'color'])
        .where('account_id', '=', accountId)
        .where('id', '=', tagId)
        .forUpdate()
        .executeTakeFirst();
      if (!current) throw new AppError('TAG_NOT_FOUND');
      if (body.name !== undefined && (await this.#nameUsed(db, accountId, body.name, tagId))) throw nameTaken(body.name);
      await db
        .updateTable('tag')
        .set({ name: body.name ?? current.name, color: body.color ?? current.color })
        .where('id', '=', tagId)
        .execute();
      const updated = toTag(await this.#withLinkCounts(db, accountId).where('tag.id', '=', tagId).executeTakeFirstOrThrow());
      // The tag before, for the audit log: its links did not change.
      const before = { ...updated, name: current.name, color: current.color as TagColor };
      await this.#record(db, accountId, 'tag.updated', updated, before);
      return updated;
    });
  }

  /** Removes the tag; it is detached from every link (the link_tag rows cascade). */
  async delete(accountId: string, tagId: string): Promise<void> {
    if (!storable(tagId)) throw new AppError('TAG_NOT_FOUND');
    await inTransaction(this.#orm, async (db) => {
      const log = await this.#changes.open(db, accountId);
      // The tag as it was, for the record: read only when someone listens.
      const before = log.wants('tag.deleted')
        ? await this.#withLinkCounts(db, accountId).where('tag.id', '=', tagId).executeTakeFirst()
        : undefined;
      const deleted = await db.deleteFrom('tag').where('account_id', '=', accountId).where('id', '=', tagId).executeTakeFirst();
      if (deleted.numDeletedRows === 0n) throw new AppError('TAG_NOT_FOUND');
      if (before) log.add('tag.deleted', toTag(before));
      await log.flush();
    });
  }

  /** Records one change of the account's tags in the transaction (events/change-log.ts). */
  async #record(db: Db, accountId: string, type: string, tag: Tag, before?: Tag): Promise<void> {
    const log = await this.#changes.open(db, accountId);
    log.add(type, tag, before);
    await log.flush();
  }

  async #nameUsed(db: Db, accountId: string, name: string, exceptTagId: string | undefined): Promise<boolean> {
    let query = db
      .selectFrom('tag')
      .select('id')
      .where('account_id', '=', accountId)
      .where((eb) => eb(eb.fn('lower', ['tag.name']), '=', eb.fn('lower', [eb.val(name)])));
    if (exceptTagId) query = query.where('id', '!=', exceptTagId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  #withLinkCounts(db: Db, accountId: string) {
    return db
      .selectFrom('tag')
      .select(['tag.id', 'tag.name', 'tag.color'])
      .select((eb) =>
        eb.selectFrom('link_tag').select(eb.fn.countAll<string>().as('n')).whereRef('link_tag.tag_id', '=', 'tag.id').as('link_count'),
      )
      .where('tag.account_id', '=', accountId);
  }
}

function toTag(row: { id: string; name: string; color: string; link_count: string | number | null }): Tag {
  return { id: row.id, name: row.name, color: row.color as TagColor, link_count: Number(row.link_count ?? 0) };
}
