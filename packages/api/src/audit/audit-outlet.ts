import { AUDIT_ACTIONS } from '@shortlinks/contract';
import { CompiledQuery } from 'kysely';
import type { Db } from '../database/database.ts';
import type { Change, ChangeOutlet, OutletSession } from '../events/change-log.ts';
import { newId } from '../ids.ts';
import { currentActing } from './acting.ts';
import { fieldChanges } from './audit-changes.ts';

/** Rows written per statement: an import's batch may hold thousands of changes. */
const ROWS_PER_STATEMENT = 1_000;

/** Every action the log keeps: it is always on, for every workspace. */
const AUDITED: ReadonlySet<string> = new Set(AUDIT_ACTIONS);

/**
 * The audit log's outlet of the change log (events/change-log.ts): every change of an audited
 * action is an entry, written in the change's own transaction, so a committed change always has
 * its entry and a refused or failed one never does. One statement per transaction (per thousand
 * changes), and none to open: the log needs no reading.
 *
 * Each entry names who acted as the work's {@link currentActing} says, and what changed as
 * {@link fieldChanges} finds it. An update that changes nothing the log shows is still an entry
 * with empty `changes` (a link's password or a webhook's secret replaced, the same values sent
 * again): it was a committed write. Writers record no change for work that wrote nothing (an
 * import's unchanged row).
 */
export class AuditOutlet implements ChangeOutlet {
  async open(db: Db): Promise<OutletSession> {
    return { types: AUDITED, write: (changes) => writeEntries(db, changes) };
  }
}

async function writeEntries(db: Db, changes: readonly Change[]): Promise<void> {
  const { actor, ip } = currentActing();
  const rows = changes.map((change) => {
    const action = change.type;
    const deleted = /\.(deleted|removed|revoked)$/.test(action);
    const created = /\.(created|added)$/.test(action);
    // An update recorded without the object before it has nothing to compare: its fields are not guessed.
    const recorded =
      created || deleted
        ? fieldChanges(deleted ? change.data : undefined, deleted ? undefined : change.data)
        : change.before === undefined
          ? {}
          : fieldChanges(change.before, change.data);
    return [
      newId('aud'),
      change.accountId,
      action,
      actor.type,
      actor.id,
      actor.name,
      action.slice(0, action.indexOf('.')),
      resourceIdOf(change.data),
      JSON.stringify(recorded),
      ip,
    ];
  });
  // Written as SQL of our own, without the query builder or the ORM's value conversion: every
  // write pays for this statement inside its transaction (docs/performance.md, "Creates").
  const plain = db.withoutPlugins();
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
    await plain.executeQuery(CompiledQuery.raw(insertStatement(chunk.length), chunk.flat()));
  }
}

const COLUMNS = 'id, account_id, action, actor_type, actor_id, actor_name, resource_type, resource_id, changes, ip';
const COLUMN_COUNT = 10;
/** The statement for one entry, the usual case, made once. */
let oneEntry: string | undefined;

/** `insert into audit_entry (…) values ($1, …, cast($9 as jsonb), $10), (…)` for `count` entries. */
function insertStatement(count: number): string {
  if (count === 1 && oneEntry) return oneEntry;
  const rows: string[] = [];
  for (let row = 0; row < count; row++) {
    const at = (column: number) => `$${row * COLUMN_COUNT + column}`;
    rows.push(`(${at(1)}, ${at(2)}, ${at(3)}, ${at(4)}, ${at(5)}, ${at(6)}, ${at(7)}, ${at(8)}, cast(${at(9)} as jsonb), ${at(10)})`);
  }
  const statement = `insert into audit_entry (${COLUMNS}) values ${rows.join(', ')}`;
  if (count === 1) oneEntry = statement;
  return statement;
}

/** The id of what changed: the object's `id` (a member's is their user id, `user_id`, when it has no `id`). */
function resourceIdOf(data: unknown): string {
  const fields = (data ?? {}) as { id?: unknown; user_id?: unknown };
  if (typeof fields.id === 'string') return fields.id;
  if (typeof fields.user_id === 'string') return fields.user_id;
  return '';
}
