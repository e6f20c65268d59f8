import { sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { AccountRow, Db } from '../database/database.ts';
import type { Change, ChangeOutlet, OutletSession } from '../events/change-log.ts';
import { newId } from '../ids.ts';

/** Rows written per statement: an import's batch may hold thousands of changes. */
const ROWS_PER_STATEMENT = 1_000;

/** The message a webhook receives for a change (Standard Webhooks: `{type, timestamp, data}`). */
export function messageOf(type: string, data: unknown, at: Date): Record<string, unknown> {
  return { type, timestamp: at.toISOString(), data };
}

/**
 * The webhooks' outlet of the change log: a change some enabled webhook of the account subscribes
 * to is written as an event and one delivery per such webhook, in the change's transaction. Each
 * delivery enters the queue by the table's trigger, in the same transaction
 * (Migration20261127112900_webhooks).
 *
 * Most accounts have no enabled webhook, and reading so in every write transaction was a round
 * trip made while the account is locked (docs/performance.md, "Creates"). So the outbox remembers
 * the accounts it found with none, with the account's `webhook_generation` at that moment, which
 * triggers bump whenever a webhook of the account becomes enabled
 * (Migration20261128603000_webhook_generation). A transaction that read the account's row (the
 * link writes' lock) and finds the same generation skips the read: no webhook can have become
 * enabled since, in any process, since that would have bumped it. A stale memory thus never drops
 * an event; an account with any enabled webhook is read every time, as before, so a webhook
 * disabled, deleted or subscribed to other events counts at the next write.
 */
export class WebhookOutbox implements ChangeOutlet {
  /** Accounts last seen with no enabled webhook, with their webhook generation then. */
  readonly #quiet = new LRUCache<string, number>({ max: 10_000 });

  async open(db: Db, accountId: string, account?: AccountRow): Promise<OutletSession | undefined> {
    const generation = account?.id === accountId ? Number(account.webhook_generation) : undefined;
    if (generation !== undefined && this.#quiet.get(accountId) === generation) return undefined;
    const hooks = await db
      .selectFrom('webhook')
      .select(['id', 'events'])
      .where('account_id', '=', accountId)
      .where('enabled', '=', true)
      .execute();
    if (hooks.length === 0) {
      // The generation was read before the webhooks: one enabled after it was read has bumped it.
      if (generation !== undefined) this.#quiet.set(accountId, generation);
      return undefined;
    }
    this.#quiet.delete(accountId);
    const types = new Set(hooks.flatMap((hook) => hook.events as string[]));
    return {
      types,
      write: async (changes) => {
        await writeEvents(db, hooks as { id: string; events: string[] }[], changes);
      },
    };
  }
}

/**
 * The events and their deliveries (their ids, in order): the hooks are the account's enabled
 * webhooks, read in the same transaction.
 */
export async function writeEvents(
  db: Db,
  hooks: readonly { id: string; events: readonly string[] }[],
  changes: readonly Change[],
): Promise<string[]> {
  const events = changes.map((change) => ({
    id: newId('evt'),
    account_id: change.accountId,
    type: change.type,
    // As SQL, not a value: the ORM's value conversion would encode the JSON text once more.
    body: sql<Record<string, unknown>>`cast(${JSON.stringify(messageOf(change.type, change.data, change.at))} as jsonb)`,
  }));
  const deliveries = events.flatMap((event) =>
    hooks
      .filter((hook) => hook.events.includes(event.type))
      .map((hook) => ({ id: newId('whd'), webhook_id: hook.id, event_id: event.id, type: event.type })),
  );
  for (let start = 0; start < events.length; start += ROWS_PER_STATEMENT) {
    await db
      .insertInto('webhook_event')
      .values(events.slice(start, start + ROWS_PER_STATEMENT))
      .execute();
  }
  for (let start = 0; start < deliveries.length; start += ROWS_PER_STATEMENT) {
    await db
      .insertInto('webhook_delivery')
      .values(deliveries.slice(start, start + ROWS_PER_STATEMENT))
      .execute();
  }
  return deliveries.map((delivery) => delivery.id);
}
