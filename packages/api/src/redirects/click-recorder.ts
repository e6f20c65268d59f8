import type { Database, Orm } from '@shortlinks/db';
import { sql } from 'kysely';
import type { AgentClass } from './agent-class.ts';

export interface ClickEvent {
  linkId: string;
  at: number;
  referrerHost: string | null;
  agentClass: Exclude<AgentClass, 'bot'>;
}

export interface ClickRecorderOptions {
  /** How often buffered clicks are written. A hard crash loses at most this much. */
  flushIntervalMs?: number;
  /** Above this many distinct unwritten events (database unreachable), new ones are dropped. */
  maxBuffered?: number;
  log?: (message: string) => void;
}

/** Visits that are the same event: one link, one second, one referrer host, one agent class. */
interface ClickGroup {
  linkId: string;
  second: number;
  referrerHost: string | null;
  agentClass: string;
  clicks: number;
}

/**
 * Buffers clicks in memory and writes them in batches, one SQL statement per batch (the events
 * and the click_count increments together), so the redirect's response path never waits for
 * the database. Identical visits within one second are buffered as one group with a count.
 * `stop()` writes what is left: a graceful shutdown loses nothing.
 */
export class ClickRecorder {
  readonly #orm: Orm;
  readonly #intervalMs: number;
  readonly #maxBuffered: number;
  readonly #log: (message: string) => void;
  #groups = new Map<string, ClickGroup>();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(orm: Orm, options: ClickRecorderOptions = {}) {
    this.#orm = orm;
    this.#intervalMs = options.flushIntervalMs ?? 1000;
    this.#maxBuffered = options.maxBuffered ?? 1_000_000;
    this.#log = options.log ?? (() => {});
  }

  record(event: ClickEvent): void {
    const second = Math.floor(event.at / 1000);
    const key = `${event.linkId}\n${second}\n${event.referrerHost ?? ''}\n${event.agentClass}`;
    const group = this.#groups.get(key);
    if (group) {
      group.clicks++;
    } else if (this.#groups.size < this.#maxBuffered) {
      this.#groups.set(key, { linkId: event.linkId, second, referrerHost: event.referrerHost, agentClass: event.agentClass, clicks: 1 });
    } else {
      this.#log('click buffer full (database unreachable?): dropping a click');
    }
  }

  /** Clicks recorded but not yet written. */
  get pending(): number {
    let clicks = 0;
    for (const group of this.#groups.values()) clicks += group.clicks;
    return clicks;
  }

  start(): void {
    this.#timer ??= setInterval(() => void this.flush().catch(() => {}), this.#intervalMs);
    this.#timer.unref();
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

  async #write(): Promise<void> {
    if (this.#groups.size === 0) return;
    const batch = this.#groups;
    this.#groups = new Map();
    const groups = [...batch.values()];
    try {
      await sql`
        with events (link_id, occurred_at, referrer_host, agent_class, clicks) as (
          select * from unnest(
            ${groups.map((g) => g.linkId)}::text[],
            ${groups.map((g) => g.second)}::float8[],
            ${groups.map((g) => g.referrerHost)}::text[],
            ${groups.map((g) => g.agentClass)}::text[],
            ${groups.map((g) => g.clicks)}::int4[])
        ),
        recorded as (
          insert into click (link_id, occurred_at, referrer_host, agent_class, clicks)
          select e.link_id, to_timestamp(e.occurred_at), e.referrer_host, e.agent_class, e.clicks
          from events e join link on link.id = e.link_id
        )
        update link set click_count = link.click_count + counted.clicks
        from (select link_id, sum(clicks) as clicks from events group by link_id) counted
        where link.id = counted.link_id`.execute(this.#orm.em.fork().getKysely<Database>());
    } catch (error) {
      // Keep them for the next attempt (the database may be restarting).
      for (const [key, group] of batch) {
        const newer = this.#groups.get(key);
        if (newer) newer.clicks += group.clicks;
        else this.#groups.set(key, group);
      }
      this.#log(`could not write ${groups.length} click groups: ${(error as Error).message}`);
      throw error;
    }
  }
}
