import type { AccountRow, Db } from '../database/database.ts';

/**
 * What changed, as one record: its type (`link.created`, …), the account, and the object as the
 * API returns it. Every write path records its changes here, inside its transaction (an outbox):
 * a committed change always has its record and a rolled-back one never does. Two outlets read the
 * same records: the webhooks' outbox (webhooks/webhook-outbox.ts) and the audit log
 * (audit/audit-outlet.ts), which is always on and takes who acts from audit/acting.ts.
 */
export interface Change {
  type: string;
  accountId: string;
  data: unknown;
  /**
   * For an update: the object before the change, as the API showed it. The audit log keeps only
   * the fields that differ between it and `data` (an update recorded without it has empty
   * `changes`); a creation has none, a deletion's `data` is the object as it was. Every change's
   * `data` carries the resource's `id` (a member's may carry `user_id` instead).
   */
  before?: unknown;
  /** When it changed, as the transaction saw it. */
  at: Date;
}

/** One transaction's view of an outlet: the types it records for the account, and how to write them. */
export interface OutletSession {
  readonly types: ReadonlySet<string>;
  write(changes: readonly Change[]): Promise<void>;
}

/** Something that keeps changes (the webhooks' outbox, the audit log). */
export interface ChangeOutlet {
  /**
   * What it records of this account's changes, read once per transaction; undefined: nothing.
   * `account`: the account's row as the transaction read it, when it did (webhook-outbox.ts).
   */
  open(db: Db, accountId: string, account?: AccountRow): Promise<OutletSession | undefined>;
}

/** The outlets of the process, built once (services.ts); {@link open} gives each transaction its log. */
export class Changes {
  readonly #outlets: readonly ChangeOutlet[];

  constructor(outlets: readonly ChangeOutlet[] = []) {
    this.#outlets = outlets;
  }

  /** The log of one transaction of the account's, to {@link ChangeLog.flush} before it commits. */
  async open(db: Db, accountId: string, account?: AccountRow): Promise<ChangeLog> {
    const sessions: OutletSession[] = [];
    for (const outlet of this.#outlets) {
      const session = await outlet.open(db, accountId, account);
      if (session && session.types.size > 0) sessions.push(session);
    }
    return new ChangeLog(accountId, sessions);
  }
}

/**
 * The changes of one transaction. A writer asks {@link wants} before it builds what a record
 * holds (a deleted link's tags cost a read), so a transaction no outlet listens to costs nothing.
 */
export class ChangeLog {
  readonly #accountId: string;
  readonly #sessions: readonly OutletSession[];
  readonly #changes: Change[] = [];

  constructor(accountId: string, sessions: readonly OutletSession[]) {
    this.#accountId = accountId;
    this.#sessions = sessions;
  }

  /** Whether any outlet keeps changes of this type (any type, without one). */
  wants(type?: string): boolean {
    return this.#sessions.some((session) => (type === undefined ? session.types.size > 0 : session.types.has(type)));
  }

  /** Records a change of this type; `before`, for an update, is the object before it (see {@link Change}). */
  add(type: string, data: unknown, before?: unknown): void {
    if (!this.wants(type)) return;
    this.#changes.push({ type, accountId: this.#accountId, data, at: new Date(), ...(before === undefined ? {} : { before }) });
  }

  /** Writes the changes to every outlet; the caller calls it last in its transaction. */
  async flush(): Promise<void> {
    const changes = this.#changes.splice(0);
    if (changes.length === 0) return;
    for (const session of this.#sessions) {
      const kept = changes.filter((change) => session.types.has(change.type));
      if (kept.length > 0) await session.write(kept);
    }
  }
}

/** A log that records nothing: for writes outside any account's transaction, and tests. */
export const NO_CHANGES = new ChangeLog('', []);
