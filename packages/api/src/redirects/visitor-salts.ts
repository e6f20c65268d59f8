import { hash, randomBytes } from 'node:crypto';
import { DAY_MS } from '@shortlinks/contract';
import type { Database } from '@shortlinks/db';
import { type Kysely, sql } from 'kysely';

/**
 * The daily salts of visitor hashes (docs/statistics.md, "Unique visitors"). One random salt per
 * UTC day lives in the `visitor_salt` table, so every server process hashes a visitor alike; it
 * is deleted once the following day is over, after which nobody — the operator included — can
 * link a hash to an IP address by trying addresses. Raw IPs are never written anywhere.
 */
export class VisitorSalts {
  /** Each day's salt in hex, ready to prefix the hashed text. */
  readonly #byDay = new Map<number, string>();
  /**
   * Hashes given lately, by day, address and User-Agent: a visitor follows many links in a row,
   * and a SHA-256 per click was the redirect's largest cost after the socket write
   * (docs/performance.md). Held in memory only, like the visit limiter's addresses, and
   * forgotten all at once when full or when the salts rotate.
   */
  readonly #recent = new Map<string, string>();
  /** The hash given last: the next visit is most often the same visitor's, and needs no key at all. */
  #last: { day: number; clientIp: string; userAgent: string | undefined; visitor: string } | undefined;

  /**
   * The visitor's hash for UTC day `day` (days since the epoch) as 16 hex digits, or undefined
   * while that day's salt is not loaded. 64 bits: collisions among a link's visitors of one day
   * are negligible (n² / 2⁶⁵). The flush turns the hex into the `bigint` the tables hold, so the
   * redirect path does no BigInt arithmetic; the one-shot `hash` skips a Hash object per click
   * (together a third of the former cost, docs/performance.md).
   */
  visitor(day: number, clientIp: string, userAgent: string | undefined): string | undefined {
    const last = this.#last;
    if (last !== undefined && last.day === day && last.clientIp === clientIp && last.userAgent === userAgent) return last.visitor;
    const key = `${day}\n${clientIp}\n${userAgent ?? ''}`;
    const known = this.#recent.get(key);
    if (known !== undefined) {
      this.#last = { day, clientIp, userAgent, visitor: known };
      return known;
    }
    const salt = this.#byDay.get(day);
    if (salt === undefined) return undefined;
    const visitor = hash('sha256', `${salt}\n${clientIp}\n${userAgent ?? ''}`).slice(0, 16);
    // Long User-Agents (a visitor may send 16 KiB) are hashed each time rather than kept.
    if (key.length <= RECENT_KEY_CHARS) {
      if (this.#recent.size >= RECENT_LIMIT) this.#recent.clear();
      this.#recent.set(key, visitor);
    }
    this.#last = { day, clientIp, userAgent, visitor };
    return visitor;
  }

  /** Loads (creating when needed) the salts of `days`, and of today and tomorrow so midnight never waits. */
  async ensure(db: Kysely<Database>, days: Iterable<number>, now: number): Promise<void> {
    const today = Math.floor(now / DAY_MS);
    const wanted = [...new Set([...days, today, today + 1])].filter((day) => !this.#byDay.has(day));
    if (wanted.length === 0) return;
    const dates = wanted.map(isoDay);
    // The first process to ask creates a day's salt; the others read it.
    await sql`
      insert into visitor_salt (day, salt)
      select unnest(${dates}::date[]), unnest(${wanted.map(() => randomBytes(32))}::bytea[])
      on conflict (day) do nothing`.execute(db);
    const rows = await sql<{ day: string; salt: Buffer }>`
      select to_char(day, 'YYYY-MM-DD') as day, salt from visitor_salt where day = any(${dates}::date[])`.execute(db);
    for (const row of rows.rows) this.#byDay.set(Math.floor(Date.parse(`${row.day}T00:00:00Z`) / DAY_MS), row.salt.toString('hex'));
  }

  /** Forgets and deletes the salts of days before yesterday. */
  async rotate(db: Kysely<Database>, now: number): Promise<void> {
    const yesterday = Math.floor(now / DAY_MS) - 1;
    for (const day of this.#byDay.keys()) if (day < yesterday) this.#byDay.delete(day);
    this.#recent.clear();
    this.#last = undefined;
    await sql`delete from visitor_salt where day < ${isoDay(yesterday)}::date`.execute(db);
  }
}

const RECENT_LIMIT = 10_000;
const RECENT_KEY_CHARS = 1_200;

/** `YYYY-MM-DD` of a UTC day number. */
export function isoDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}
