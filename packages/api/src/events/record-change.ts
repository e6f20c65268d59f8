import type { Db } from '../database/database.ts';
import type { Changes } from './change-log.ts';

/** One change of an account's, as the API shows its object (see {@link Change}): `before` for an update. */
export interface RecordedChange {
  type: string;
  data: unknown;
  before?: unknown;
}

/**
 * Records changes of one account in the caller's transaction (change-log.ts), for the writes of
 * keys, people, domains and webhooks: each makes one or a few records, so it opens the log, adds
 * and flushes in one step. Never give it a secret (a key, a hash, a webhook secret, a token): the
 * objects recorded are the API's views, which carry none.
 */
export async function recordChanges(changes: Changes, db: Db, accountId: string, recorded: readonly RecordedChange[]): Promise<void> {
  if (recorded.length === 0) return;
  const log = await changes.open(db, accountId);
  for (const change of recorded) log.add(change.type, change.data, change.before);
  await log.flush();
}

/** {@link recordChanges} for one change. */
export function recordChange(changes: Changes, db: Db, accountId: string, type: string, data: unknown, before?: unknown): Promise<void> {
  return recordChanges(changes, db, accountId, [{ type, data, ...(before === undefined ? {} : { before }) }]);
}
