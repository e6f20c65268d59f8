import type { AuditEntry, AuditLogPage, ListAuditLogQuery } from '@shortlinks/contract';
import type { Orm } from '@shortlinks/db';
import { sql } from 'kysely';
import { type Db, reader, storable } from '../database/database.ts';

/** Entries one retention statement deletes at most: a long backlog goes in bounded batches. */
const DELETED_PER_STATEMENT = 5_000;

/**
 * The audit log of a workspace (docs/accounts.md, "The audit log"): its entries are written by the
 * change log's audit outlet (audit-outlet.ts) in each change's transaction; here they are listed,
 * and deleted once older than the retention.
 */
export class AuditLogService {
  readonly #orm: Orm;

  constructor(orm: Orm) {
    this.#orm = orm;
  }

  /** GET /audit-log: one page of the workspace's entries the filters match, newest first, and how many match. */
  async list(accountId: string, query: ListAuditLogQuery): Promise<AuditLogPage> {
    const { page, per_page } = query;
    const filters = [query.actor_id, query.resource_id, query.action];
    // A text PostgreSQL cannot hold names no entry (database.ts, `storable`).
    if (filters.some((filter) => filter !== undefined && !storable(filter))) return { entries: [], page, per_page, total: 0 };
    const db = reader(this.#orm);
    const [rows, counted] = await Promise.all([
      matching(db, accountId, query)
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(per_page)
        .offset((page - 1) * per_page)
        .execute(),
      matching(db, accountId, query)
        .select((eb) => eb.fn.countAll<string>().as('total'))
        .executeTakeFirstOrThrow(),
    ]);
    return { entries: rows.map(toEntry), page, per_page, total: Number(counted.total) };
  }

  /**
   * Deletes entries older than `days` (AUDIT_RETENTION_DAYS), a bounded batch per statement until
   * none is left; how many it deleted. Safe with several instances at once: each statement deletes
   * rows that are still there, skipping those another instance is deleting.
   */
  async deleteOlderThan(days: number): Promise<number> {
    const db = reader(this.#orm);
    let deleted = 0;
    for (;;) {
      const result = await sql`delete from audit_entry where id in (
        select id from audit_entry where created_at < clock_timestamp() - make_interval(days => ${days})
        limit ${DELETED_PER_STATEMENT} for update skip locked)`.execute(db);
      const rows = Number(result.numAffectedRows ?? 0n);
      deleted += rows;
      if (rows < DELETED_PER_STATEMENT) return deleted;
    }
  }
}

function matching(db: Db, accountId: string, { actor_id, resource_id, action }: ListAuditLogQuery) {
  let query = db.selectFrom('audit_entry').where('account_id', '=', accountId);
  if (actor_id !== undefined) query = query.where('actor_id', '=', actor_id);
  if (resource_id !== undefined) query = query.where('resource_id', '=', resource_id);
  if (action !== undefined) query = query.where('action', '=', action);
  return query;
}

interface EntryRow {
  id: string;
  action: string;
  actor_type: string;
  actor_id: string;
  actor_name: string;
  resource_type: string;
  resource_id: string;
  changes: Record<string, { before: unknown; after: unknown }>;
  ip: string | null;
  created_at: Date;
}

function toEntry(row: EntryRow): AuditEntry {
  return {
    id: row.id,
    action: row.action as AuditEntry['action'],
    actor: { type: row.actor_type as AuditEntry['actor']['type'], id: row.actor_id, name: row.actor_name },
    resource: { type: row.resource_type as AuditEntry['resource']['type'], id: row.resource_id },
    // JSON as the outlet wrote it (audit-changes.ts).
    changes: row.changes as AuditEntry['changes'],
    ip: row.ip,
    created_at: row.created_at.getTime(),
  };
}
