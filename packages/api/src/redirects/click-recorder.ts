import { DAY_MS } from '@shortlinks/contract';
import type { Orm } from '@shortlinks/db';
import { sql } from 'kysely';
import { type Db, plainReader } from '../database/database.ts';
import { GeoLookup } from '../stats/geo-lookup.ts';
import type { VisitorAgent } from './agent-class.ts';
import { type ClickGroup, writeClickBatch } from './click-batch.ts';
import { chunksOf } from './click-chunks.ts';
import type { ClickTrigger } from './click-values.ts';
import { isoDay, VisitorSalts } from './visitor-salts.ts';
import { type WriteProgress, writeApart } from './write-apart.ts';

export interface ClickEvent {
  linkId: string;
  at: number;
  referrerHost: string | null;
  /** Bots are not recorded: the caller leaves them out. */
  agent: VisitorAgent;
  /** ISO country code from the trusted proxy header, or null. */
  country: string | null;
  /**
   * Hashed with the day's salt as soon as it is known; kept in memory until the flush looks it up
   * in the IP database (geo-lookup.ts), then forgotten: never written.
   */
  clientIp: string;
  /** `qr` when the visit came from the link's QR code (`?qr=1`); none: `link`. */
  trigger?: ClickTrigger;
  userAgent: string | undefined;
}

export interface ClickRecorderOptions {
  /** How often buffered clicks are written. A hard crash loses at most this much. */
  flushIntervalMs?: number;
  /** Above this many distinct unwritten events (database unreachable), new ones are dropped. */
  maxBuffered?: number;
  /** Raw click events older than this many days are deleted (rollups are kept); 0 keeps them all. */
  retentionDays?: number;
  /** Where the recorder says what went wrong: clicks dropped, writes failing, housekeeping failing. */
  log?: (message: string) => void;
  /** Told once clicks were written: click counts changed (what this process keeps of them is stale). */
  written?: () => void;
  /** Where visitors' countries and cities are looked up when clicks are written; none: no database. */
  geo?: GeoLookup;
  /** Clicks written per statement at most while a webhook subscribes to `link.clicked` (tests lower it). */
  clickEventsPerChunk?: number;
}

/** Clicks the recorder gave up on since it started (for metrics); they are in no count. */
export interface DroppedClicks {
  /** Groups PostgreSQL refused to write even alone (docs/security.md, "Click counting"), or recorded without a valid time, and their clicks. */
  refusedGroups: number;
  refusedClicks: number;
  /** Clicks that found the buffer full while the database was unreachable. */
  overflowClicks: number;
}

/** Clicks counted since start (for metrics): handed to the recorder, and written. */
export interface ClickCounts {
  /** Every click {@link ClickRecorder.record} was given, whatever became of it. */
  recorded: number;
  written: number;
}

/** Told of each flush that had clicks to write: how long it took and whether it failed. */
export type FlushObserver = (seconds: number, failed: boolean) => void;

/**
 * How often buffered clicks are written unless configured (`CLICK_FLUSH_MS`, docs/redirects.md).
 * A flush costs PostgreSQL per distinct link, not per click (about 12 row writes each: the event,
 * hourly, dimension and account rollups), so under load a longer interval is proportionally
 * cheaper; docs/performance.md has the measurements that chose this value. A hard crash loses at
 * most this much.
 */
export const DEFAULT_CLICK_FLUSH_MS = 5000;

/**
 * Distinct click events (visits of one link by one visitor in one second) kept unwritten at most,
 * unless configured (`CLICK_BUFFER_MAX`): while the database is unreachable the buffer grows, and
 * each takes about 375 bytes of heap (measured: 374 MB for a million), so this bounds it near 95 MB.
 */
export const DEFAULT_CLICK_BUFFER_MAX = 250_000;

/** The latest time a JavaScript Date can hold. */
const MAX_TIME_MS = 8.64e15;

/**
 * Days raw click events are kept unless configured (`CLICK_RETENTION_DAYS`); the statistics
 * rollups are kept for ever. Longer than the longest statistics range (400 days at `interval=day`).
 */
export const DEFAULT_RETENTION_DAYS = 400;

/** Housekeeping (salt rotation, visitor dedupe rows, raw event retention) runs at most this often. */
const MAINTENANCE_INTERVAL_MS = 3_600_000;
/** Raw events are deleted in chunks, so retention never holds long locks. */
const RETENTION_CHUNK = 20_000;
/**
 * Click groups written per statement. A flush after an outage may hold up to CLICK_BUFFER_MAX
 * groups, and one statement for all of them could outlast the statement bound
 * (DATABASE_QUERY_TIMEOUT_MS) and be cut at every attempt; at 2,000 distinct links a flush took
 * about half a second (docs/performance.md).
 */
const FLUSH_CHUNK = 5_000;
/**
 * Clicks written per statement at most while some enabled webhook subscribes to `link.clicked`:
 * then each click is also an event and a delivery (click-batch.ts), about 100–200 µs of
 * PostgreSQL each on a busy machine, so a chunk of 5,000 groups of many clicks each would outlast
 * the statement bound and be cut at every attempt. 5,000 clicks take about a second.
 */
const CLICK_EVENTS_PER_CHUNK = 5_000;
/** While writes keep failing (database unreachable), the failure is logged at most this often. */
const FAILURE_LOG_INTERVAL_MS = 60_000;

/**
 * Buffers clicks in memory and writes them in batches, one SQL statement per batch (the events,
 * the statistics rollups and the click_count increments together, so they always agree), so
 * the redirect's response path never waits for the database. Identical visits within one second
 * are buffered as one group with a count. `stop()` writes what is left: a graceful shutdown
 * loses nothing.
 *
 * A batch PostgreSQL refuses for its data is written again in halves, down to single groups,
 * and only the groups it refuses alone are dropped, logged and counted (`dropped`): one visitor
 * can never stop the counting of the others. When the database is unreachable nothing is
 * dropped: the groups stay buffered, up to `maxBuffered`, for the next flush.
 */
export class ClickRecorder {
  readonly #orm: Orm;
  readonly #intervalMs: number;
  readonly #maxBuffered: number;
  readonly #retentionDays: number;
  readonly #log: (message: string) => void;
  readonly #written: () => void;
  readonly #salts = new VisitorSalts();
  readonly #geo: GeoLookup;
  readonly #clickEventsPerChunk: number;
  #groups = new Map<string, ClickGroup>();
  /**
   * Each link's group counted last, of those in `#groups`: a visit equal to it is counted without
   * building its key (the redirect's largest cost after the socket write, docs/performance.md).
   */
  #lastOfLink = new Map<string, ClickGroup>();
  /** Visits of a day whose salt was not loaded yet (only right after start): hashed at the next flush. */
  #unsalted: ClickEvent[] = [];
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();
  #lastMaintenance = 0;
  readonly #dropped: DroppedClicks = { refusedGroups: 0, refusedClicks: 0, overflowClicks: 0 };
  /** Clicks dropped on a full buffer since the last flush said so. */
  #overflowUnreported = 0;
  /** Writes failed in a row (database unreachable), and when that was last logged. */
  #failedWrites = 0;
  #failureLoggedAt = 0;
  readonly #counts: ClickCounts = { recorded: 0, written: 0 };
  #observeFlush: FlushObserver | undefined;

  constructor(orm: Orm, options: ClickRecorderOptions = {}) {
    this.#orm = orm;
    this.#intervalMs = options.flushIntervalMs ?? DEFAULT_CLICK_FLUSH_MS;
    this.#maxBuffered = options.maxBuffered ?? DEFAULT_CLICK_BUFFER_MAX;
    this.#retentionDays = options.retentionDays ?? DEFAULT_RETENTION_DAYS;
    this.#log = options.log ?? (() => {});
    this.#written = options.written ?? (() => {});
    this.#geo = options.geo ?? new GeoLookup([]);
    this.#clickEventsPerChunk = options.clickEventsPerChunk ?? CLICK_EVENTS_PER_CHUNK;
  }

  /** Where clicks' countries are looked up; rules with a `country` use the same (visits.ts). */
  get geo(): GeoLookup {
    return this.#geo;
  }

  record(event: ClickEvent): void {
    // A plain field: the redirect path pays nothing more for metrics (they are read at scrape time).
    this.#counts.recorded++;
    this.#buffer(event);
  }

  #buffer(event: ClickEvent): void {
    const second = Math.floor(event.at / 1000);
    const visitor = this.#salts.visitor(Math.floor(event.at / DAY_MS), event.clientIp, event.userAgent);
    if (visitor === undefined) {
      if (this.#unsalted.length + this.#groups.size < this.#maxBuffered) this.#unsalted.push(event);
      else this.#overflow();
      return;
    }
    const { agent, referrerHost, country } = event;
    const trigger = event.trigger ?? 'link';
    // The same visit again (a visitor's burst, a refresh): no key to build or look up.
    const last = this.#lastOfLink.get(event.linkId);
    if (
      last !== undefined &&
      last.second === second &&
      last.visitor === visitor &&
      last.referrerHost === referrerHost &&
      last.device === agent.device &&
      last.browser === agent.browser &&
      last.os === agent.os &&
      last.country === country &&
      last.trigger === trigger
    ) {
      last.clicks++;
      return;
    }
    const key = `${event.linkId}\n${second}\n${visitor}\n${referrerHost ?? ''}\n${agent.device}\n${agent.browser ?? ''}\n${agent.os ?? ''}\n${country ?? ''}\n${trigger}`;
    const group = this.#groups.get(key);
    if (group) {
      group.clicks++;
      this.#lastOfLink.set(event.linkId, group);
    } else if (this.#groups.size + this.#unsalted.length < this.#maxBuffered) {
      const created: ClickGroup = {
        linkId: event.linkId,
        second,
        referrerHost,
        device: agent.device,
        browser: agent.browser,
        os: agent.os,
        country,
        city: null,
        // The same visitor hash is the same address (and User-Agent) that day: one address per group.
        address: this.#geo.enabled ? event.clientIp : null,
        trigger,
        visitor,
        clicks: 1,
      };
      this.#groups.set(key, created);
      this.#lastOfLink.set(event.linkId, created);
    } else {
      this.#overflow();
    }
  }

  /** Counted here, logged once per flush: a full buffer under load must not write a log line per visit. */
  #overflow(): void {
    this.#dropped.overflowClicks++;
    this.#overflowUnreported++;
  }

  /** Clicks recorded but not yet written. */
  get pending(): number {
    let clicks = 0;
    for (const group of this.#groups.values()) clicks += group.clicks;
    return clicks + this.#unsalted.length;
  }

  /** Clicks given up on since start; they are in no count. */
  get dropped(): Readonly<DroppedClicks> {
    return { ...this.#dropped };
  }

  /** Clicks recorded and written since start; with {@link dropped} and {@link pending}, where every click went. */
  get counts(): Readonly<ClickCounts> {
    return { ...this.#counts };
  }

  /** The metrics' flush duration histogram (one observer: the server's). */
  observeFlushes(observer: FlushObserver): void {
    this.#observeFlush = observer;
  }

  start(): void {
    this.#timer ??= setInterval(() => void this.flush().catch(() => {}), this.#intervalMs);
    this.#timer.unref();
    // Load today's salt now, so the first visits are hashed on arrival.
    void this.#salts.ensure(this.#db(), [], Date.now()).catch(() => {});
  }

  /** Stops the timer and writes every buffered click; throws when some could not be written (they are lost). */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    try {
      await this.flush();
    } catch (error) {
      this.#log(`stopping with ${plural(this.pending, 'click')} that could not be written: they are lost`);
      throw error;
    }
  }

  /** Writes every buffered click now; flushes never overlap. */
  flush(): Promise<void> {
    this.#flushing = this.#flushing.catch(() => {}).then(() => this.#write());
    return this.#flushing;
  }

  /** Unconverted: every statement is raw SQL of plain values, one statement each, outside any transaction. */
  #db(): Db {
    return plainReader(this.#orm);
  }

  /** One flush: the buffered groups, then the hourly housekeeping, which runs whatever the write met. */
  async #write(): Promise<void> {
    if (this.#overflowUnreported > 0) {
      this.#log(
        `dropped ${plural(this.#overflowUnreported, 'click')}: the buffer is full (${this.#maxBuffered} click groups waiting; database unreachable?)`,
      );
      this.#overflowUnreported = 0;
    }
    try {
      await this.#hashUnsalted();
      await this.#writeGroups();
      if (this.#failedWrites > 0) {
        this.#log(`clicks are written again, after ${plural(this.#failedWrites, 'failed attempt')}`);
        this.#failedWrites = 0;
        this.#failureLoggedAt = 0;
      }
    } catch (error) {
      this.#failedWrites++;
      const now = Date.now();
      if (now - this.#failureLoggedAt >= FAILURE_LOG_INTERVAL_MS) {
        this.#failureLoggedAt = now;
        this.#log(`could not write ${plural(this.pending, 'click')}, kept for the next attempt: ${(error as Error).message}`);
      }
      throw error;
    } finally {
      await this.#maintain();
    }
  }

  /**
   * Looks the buffered groups' visitors up in the IP database and forgets their addresses (off the
   * redirect's path: docs/statistics.md, "Countries and cities"). A country from the trusted proxy
   * header wins; the database's city is kept only when it lies in that country. A database that
   * cannot be read leaves them unknown, said once per flush: counting never waits on it.
   */
  async #locate(groups: Iterable<ClickGroup>): Promise<void> {
    const waiting: ClickGroup[] = [];
    for (const group of groups) if (group.address !== null) waiting.push(group);
    if (waiting.length === 0) return;
    let found: Map<string, { country: string | null; city: string | null }> | undefined;
    try {
      found = await this.#geo.locate(waiting.map((group) => group.address as string));
    } catch (error) {
      this.#log(
        `could not look ${plural(waiting.length, 'click group')} up in the IP database, written without a place: ${(error as Error).message}`,
      );
    }
    for (const group of waiting) {
      const location = found?.get(group.address as string);
      group.address = null;
      if (!location || location.country === null) continue;
      if (group.country === null) group.country = location.country;
      if (group.country === location.country) group.city = location.city;
    }
  }

  /** Writes the buffered groups; those the database refuses alone are dropped, the rest kept when it is unreachable. */
  async #writeGroups(): Promise<void> {
    if (this.#groups.size === 0) return;
    const batch = this.#groups;
    this.#groups = new Map();
    // Groups on their way to the database take no more clicks.
    this.#lastOfLink = new Map();
    await this.#locate(batch.values());
    const progress: WriteProgress<ClickGroup> = { written: new Set(), refused: [] };
    const db = this.#db();
    const started = performance.now();
    let failed = true;
    try {
      // Each chunk in a transaction of its own: a statement cut by the statement bound (the
      // database hung) is then rolled back when PostgreSQL runs again, rather than committed
      // after the groups were kept for the next attempt, and counted twice.
      const write = (groups: ClickGroup[]) => db.transaction().execute((trx) => writeClickBatch(trx, groups));
      const clicksPerChunk = (await clickEventsSubscribed(db)) ? this.#clickEventsPerChunk : Number.POSITIVE_INFINITY;
      for (const chunk of chunksOf([...batch.values()], FLUSH_CHUNK, clicksPerChunk)) {
        await writeApart(write, chunk, progress);
        // Written (or refused): if a later chunk fails, only what follows is kept for the next attempt.
        const refused = new Set(progress.refused.map(({ item }) => item));
        for (const group of chunk) if (!refused.has(group)) progress.written.add(group);
      }
      failed = false;
      this.#written();
    } catch (error) {
      if (progress.written.size > 0) this.#written();
      // Keep what was neither written nor refused for the next attempt (the database may be restarting).
      const refused = new Set(progress.refused.map(({ item }) => item));
      for (const [key, group] of batch) {
        if (progress.written.has(group) || refused.has(group)) continue;
        const newer = this.#groups.get(key);
        if (newer) newer.clicks += group.clicks;
        else this.#groups.set(key, group);
      }
      throw error;
    } finally {
      // Refused before the database went away, or not: they can never be written.
      if (progress.refused.length > 0) this.#drop(progress.refused);
      // A whole batch written leaves `progress.written` empty: only halves written apart are listed.
      const refusedGroups = new Set(progress.refused.map(({ item }) => item));
      for (const group of batch.values()) {
        if (failed ? progress.written.has(group) : !refusedGroups.has(group)) this.#counts.written += group.clicks;
      }
      this.#observeFlush?.((performance.now() - started) / 1000, failed);
    }
  }

  /** Counts and logs the groups PostgreSQL refused even alone: their data can never be written. */
  #drop(refused: WriteProgress<ClickGroup>['refused']): void {
    let clicks = 0;
    for (const { item } of refused) clicks += item.clicks;
    this.#dropped.refusedGroups += refused.length;
    this.#dropped.refusedClicks += clicks;
    const reasons = [...new Set(refused.map(({ refusal }) => `${refusal.message} (SQLSTATE ${refusal.code})`))];
    const shown = reasons.slice(0, 3).join('; ') + (reasons.length > 3 ? `; and ${reasons.length - 3} more reasons` : '');
    this.#log(`dropped ${plural(clicks, 'click')} (${plural(refused.length, 'click group')}) the database refused: ${shown}`);
  }

  /** Loads the salts that buffered visits wait for and hashes those visits. */
  async #hashUnsalted(): Promise<void> {
    if (this.#unsalted.length === 0) return;
    // A time no day can be found for would fail every later flush; no producer sends one, but none may.
    const timeless = this.#unsalted.filter((event) => !(Math.abs(event.at) <= MAX_TIME_MS));
    if (timeless.length > 0) {
      this.#unsalted = this.#unsalted.filter((event) => Math.abs(event.at) <= MAX_TIME_MS);
      this.#dropped.refusedGroups += timeless.length;
      this.#dropped.refusedClicks += timeless.length;
      this.#log(`dropped ${plural(timeless.length, 'click')} without a valid time`);
    }
    await this.#salts.ensure(
      this.#db(),
      this.#unsalted.map((event) => Math.floor(event.at / DAY_MS)),
      Date.now(),
    );
    const waiting = this.#unsalted;
    this.#unsalted = [];
    for (const event of waiting) this.#buffer(event);
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

/** Whether some enabled webhook subscribes to `link.clicked`: one short query per flush. */
async function clickEventsSubscribed(db: Db): Promise<boolean> {
  const { rows } = await sql<{ subscribed: boolean }>`
    select exists (select 1 from webhook where enabled and 'link.clicked' = any(events)) as subscribed`.execute(db);
  return rows[0]?.subscribed === true;
}

/** `1 click`, `3 clicks`. */
function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
