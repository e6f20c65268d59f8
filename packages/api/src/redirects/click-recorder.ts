import type { Database, Orm } from '@shortlinks/db';
import { type Kysely, sql } from 'kysely';
import type { VisitorAgent } from './agent-class.ts';
import { type ClickGroup, writeClickBatch } from './click-batch.ts';
import { DAY_MS, isoDay, VisitorSalts } from './visitor-salts.ts';

export interface ClickEvent {
  linkId: string;
  at: number;
  referrerHost: string | null;
  /** Bots are not recorded: the caller leaves them out. */
  agent: VisitorAgent;
  /** ISO country code from the trusted proxy header, or null. */
  country: string | null;
  /** Hashed with the day's salt as soon as it is known, then forgotten: never written. */
  clientIp: string;
  userAgent: string | undefined;
}

export interface ClickRecorderOptions {
  /** How often buffered clicks are written. A hard crash loses at most this much. */
  flushIntervalMs?: number;
  /** Above this many distinct unwritten events (database unreachable), new ones are dropped. */
  maxBuffered?: number;
  /** Raw click events older than this many days are deleted (rollups are kept); 0 keeps them all. */
  retentionDays?: number;
  log?: (message: string) => void;
}

/**
 * How often buffered clicks are written unless configured (`CLICK_FLUSH_MS`, docs/redirects.md).
 * A flush costs PostgreSQL per distinct link, not per click (about 12 row writes each: the event,
 * hourly, dimension and account rollups), so under load a longer interval is proportionally
 * cheaper: with 2,000 links visited every second, writing each second took ~0.4 s of database time
 * per second on this 2-core machine, and the redirect ratio was 0.58 at 1 s, 0.67 at 2 s and 0.81
 * at 5 s (docs/performance.md). A hard crash loses at most this much.
 */
export const DEFAULT_CLICK_FLUSH_MS = 5000;

/** Housekeeping (salt rotation, visitor dedupe rows, raw event retention) runs at most this often. */
const MAINTENANCE_INTERVAL_MS = 3_600_000;
/** Raw events are deleted in chunks, so retention never holds long locks. */
const RETENTION_CHUNK = 20_000;

/**
 * Buffers clicks in memory and writes them in batches, one SQL statement per batch (the events,
 * the statistics rollups and the click_count increments together, so they always agree), so
 * the redirect's response path never waits for the database. Identical visits within one second
 * are buffered as one group with a count. `stop()` writes what is left: a graceful shutdown
 * loses nothing.
 */
export class ClickRecorder {
  readonly #orm: Orm;
  readonly #intervalMs: number;
  readonly #maxBuffered: number;
  readonly #retentionDays: number;
  readonly #log: (message: string) => void;
  readonly #salts = new VisitorSalts();
  #groups = new Map<string, ClickGroup>();
  /** Visits of a day whose salt was not loaded yet (only right after start): hashed at the next flush. */
  #unsalted: ClickEvent[] = [];
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();
  #lastMaintenance = 0;

  constructor(orm: Orm, options: ClickRecorderOptions = {}) {
    this.#orm = orm;
    this.#intervalMs = options.flushIntervalMs ?? DEFAULT_CLICK_FLUSH_MS;
    this.#maxBuffered = options.maxBuffered ?? 1_000_000;
    this.#retentionDays = options.retentionDays ?? 0;
    this.#log = options.log ?? (() => {});
  }

  record(event: ClickEvent): void {
    const second = Math.floor(event.at / 1000);
    const visitor = this.#salts.visitor(Math.floor(event.at / DAY_MS), event.clientIp, event.userAgent);
    if (visitor === undefined) {
      if (this.#unsalted.length + this.#groups.size < this.#maxBuffered) this.#unsalted.push(event);
      else this.#log('click buffer full (database unreachable?): dropping a click');
      return;
    }
    const { agent, referrerHost, country } = event;
    const key = `${event.linkId}\n${second}\n${visitor}\n${referrerHost ?? ''}\n${agent.device}\n${agent.browser ?? ''}\n${agent.os ?? ''}\n${country ?? ''}`;
    const group = this.#groups.get(key);
    if (group) {
      group.clicks++;
    } else if (this.#groups.size + this.#unsalted.length < this.#maxBuffered) {
      this.#groups.set(key, {
        linkId: event.linkId,
        second,
        referrerHost,
        device: agent.device,
        browser: agent.browser,
        os: agent.os,
        country,
        visitor,
        clicks: 1,
      });
    } else {
      this.#log('click buffer full (database unreachable?): dropping a click');
    }
  }

  /** Clicks recorded but not yet written. */
  get pending(): number {
    let clicks = 0;
    for (const group of this.#groups.values()) clicks += group.clicks;
    return clicks + this.#unsalted.length;
  }

  start(): void {
    this.#timer ??= setInterval(() => void this.flush().catch(() => {}), this.#intervalMs);
    this.#timer.unref();
    // Load today's salt now, so the first visits are hashed on arrival.
    void this.#salts.ensure(this.#db(), [], Date.now()).catch(() => {});
  }

  /** Stops the timer and writes every buffered click. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }

  /** Writes every buffered click now; flushes never overlap. */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.catch(() => {}).then(() => this.#write());
    return this.#flushing;
  }

  #db(): Kysely<Database> {
    return this.#orm.em.fork().getKysely<Database>();
  }

  async #write(): Promise<void> {
    await this.#hashUnsalted();
    if (this.#groups.size > 0) {
      const batch = this.#groups;
      this.#groups = new Map();
      try {
        await writeClickBatch(this.#db(), [...batch.values()]);
      } catch (error) {
        // Keep them for the next attempt (the database may be restarting).
        for (const [key, group] of batch) {
          const newer = this.#groups.get(key);
          if (newer) newer.clicks += group.clicks;
          else this.#groups.set(key, group);
        }
        this.#log(`could not write ${batch.size} click groups: ${(error as Error).message}`);
        throw error;
      }
    }
    await this.#maintain();
  }

  /** Loads the salts that buffered visits wait for and hashes those visits. */
  async #hashUnsalted(): Promise<void> {
    if (this.#unsalted.length === 0) return;
    await this.#salts.ensure(
      this.#db(),
      this.#unsalted.map((event) => Math.floor(event.at / DAY_MS)),
      Date.now(),
    );
    const waiting = this.#unsalted;
    this.#unsalted = [];
    for (const event of waiting) this.record(event);
  }

  /** Hourly: rotates salts, forgets who was counted before yesterday, applies raw event retention. */
  async #maintain(): Promise<void> {
    const now = Date.now();
    if (now - this.#lastMaintenance < MAINTENANCE_INTERVAL_MS) return;
    this.#lastMaintenance = now;
    try {
      const db = this.#db();
      await this.#salts.rotate(db, now);
      await this.#salts.ensure(db, [], now);
      await sql`delete from click_visitor where day < ${isoDay(Math.floor(now / DAY_MS) - 1)}::date`.execute(db);
      if (this.#retentionDays > 0) {
        const before = new Date(now - this.#retentionDays * DAY_MS);
        for (let chunk = 0; chunk < 50; chunk++) {
          const deleted = await sql`
            delete from click where id in (select id from click where occurred_at < ${before} limit ${RETENTION_CHUNK})`.execute(db);
          if (Number(deleted.numAffectedRows ?? 0) < RETENTION_CHUNK) break;
        }
      }
    } catch (error) {
      this.#log(`click housekeeping failed (retried within the hour): ${(error as Error).message}`);
      this.#lastMaintenance = now - MAINTENANCE_INTERVAL_MS + 60_000;
    }
  }
}
