import type { Database, Orm } from '@shortlinks/db';
import { type Kysely, sql } from 'kysely';
import type { VisitorAgent } from './agent-class.ts';
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

/** Visits that are the same event: one link, one second, one visitor, one referrer host, one agent, one country. */
interface ClickGroup {
  linkId: string;
  second: number;
  referrerHost: string | null;
  device: string;
  browser: string | null;
  os: string | null;
  country: string | null;
  visitor: string | null;
  clicks: number;
}

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
    this.#intervalMs = options.flushIntervalMs ?? 1000;
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
        await writeBatch(this.#db(), [...batch.values()]);
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

/**
 * One statement per batch: the raw events, today's newly seen visitors, the hourly and daily
 * rollups of links and accounts, and click_count. A visitor counts once per link and UTC day, in
 * the hour of their first click that day (docs/statistics.md). Rows are upserted in key order, so
 * two processes flushing at once take their locks in the same order.
 */
async function writeBatch(db: Kysely<Database>, groups: ClickGroup[]): Promise<void> {
  await sql`
    with events (link_id, second, referrer_host, agent_class, browser, os, country, visitor, clicks) as (
      select * from unnest(
        ${groups.map((g) => g.linkId)}::text[],
        ${groups.map((g) => g.second)}::float8[],
        ${groups.map((g) => g.referrerHost)}::text[],
        ${groups.map((g) => g.device)}::text[],
        ${groups.map((g) => g.browser)}::text[],
        ${groups.map((g) => g.os)}::text[],
        ${groups.map((g) => g.country)}::text[],
        ${groups.map((g) => g.visitor)}::int8[],
        ${groups.map((g) => g.clicks)}::int4[])
    ),
    live as (
      select e.*, link.account_id, to_timestamp(e.second) as at,
        date_trunc('hour', to_timestamp(e.second), 'UTC') as hour,
        (to_timestamp(e.second) at time zone 'UTC')::date as day
      from events e join link on link.id = e.link_id
    ),
    recorded as (
      insert into click (link_id, occurred_at, referrer_host, agent_class, browser, os, country, visitor, clicks)
      select link_id, at, referrer_host, agent_class, browser, os, country, visitor, clicks from live
    ),
    firsts as (
      select link_id, day, visitor, min(hour) as hour from live where visitor is not null group by 1, 2, 3
    ),
    fresh as (
      insert into click_visitor (day, link_id, visitor)
      select day, link_id, visitor from firsts order by 1, 2, 3
      on conflict do nothing
      returning day, link_id, visitor
    ),
    fresh_by_hour as (
      select firsts.link_id, firsts.hour, count(*)::int as visitors
      from fresh join firsts using (day, link_id, visitor) group by 1, 2
    ),
    hourly as (
      select c.link_id, c.account_id, c.hour, c.clicks, coalesce(v.visitors, 0) as visitors
      from (select link_id, account_id, hour, sum(clicks)::int as clicks from live group by 1, 2, 3) c
      left join fresh_by_hour v using (link_id, hour)
    ),
    link_hourly as (
      insert into click_hourly (link_id, hour, clicks, visitors)
      select link_id, hour, clicks, visitors from hourly order by 1, 2
      on conflict (link_id, hour) do update
      set clicks = click_hourly.clicks + excluded.clicks, visitors = click_hourly.visitors + excluded.visitors
    ),
    account_hourly as (
      insert into account_click_hourly (account_id, hour, clicks, visitors)
      select account_id, hour, sum(clicks), sum(visitors) from hourly group by 1, 2 order by 1, 2
      on conflict (account_id, hour) do update
      set clicks = account_click_hourly.clicks + excluded.clicks, visitors = account_click_hourly.visitors + excluded.visitors
    ),
    dimensions as (
      select live.link_id, live.account_id, live.day, d.dimension, d.value, live.clicks
      from live cross join lateral (values
        ('referrer', coalesce(live.referrer_host, '')),
        ('device', live.agent_class),
        ('browser', coalesce(live.browser, '')),
        ('os', coalesce(live.os, '')),
        ('country', coalesce(live.country, ''))) d (dimension, value)
    ),
    link_dimensions as (
      insert into click_daily_dimension (link_id, day, dimension, value, clicks)
      select link_id, day, dimension, value, sum(clicks) from dimensions group by 1, 2, 3, 4 order by 1, 2, 3, 4
      on conflict (link_id, day, dimension, value) do update set clicks = click_daily_dimension.clicks + excluded.clicks
    ),
    account_dimensions as (
      insert into account_click_daily_dimension (account_id, day, dimension, value, clicks)
      select account_id, day, dimension, value, sum(clicks) from dimensions group by 1, 2, 3, 4 order by 1, 2, 3, 4
      on conflict (account_id, day, dimension, value) do update set clicks = account_click_daily_dimension.clicks + excluded.clicks
    ),
    account_daily_links as (
      insert into account_click_daily_link (account_id, day, link_id, clicks)
      select account_id, day, link_id, sum(clicks) from live group by 1, 2, 3 order by 1, 2, 3
      on conflict (account_id, day, link_id) do update set clicks = account_click_daily_link.clicks + excluded.clicks
    ),
    account_weekly_links as (
      insert into account_click_weekly_link (account_id, week, link_id, clicks)
      select account_id, date_trunc('week', day)::date, link_id, sum(clicks) from live group by 1, 2, 3 order by 1, 2, 3
      on conflict (account_id, week, link_id) do update set clicks = account_click_weekly_link.clicks + excluded.clicks
    ),
    -- Clicks of a day that may have closed (tag-stats-cache.ts) reopen the cached tag sums of that day.
    late_tag_days as (
      delete from tag_stats_day
      where day in (select day from live where day < (now() at time zone 'UTC')::date)
        and exists (select 1 from live where day < (now() at time zone 'UTC')::date)
    )
    update link set click_count = link.click_count + counted.clicks
    from (select link_id, sum(clicks) as clicks from live group by link_id) counted
    where link.id = counted.link_id`.execute(db);
}
