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
  /** Above this many unwritten clicks (database unreachable), the oldest are dropped. */
  maxBuffered?: number;
  log?: (message: string) => void;
}

/**
 * Buffers clicks in memory and writes them in batches, one SQL statement per batch (the events
 * and the click_count increments together), so the redirect's response path never waits for
 * the database. `stop()` writes what is left: a graceful shutdown loses nothing.
 */
export class ClickRecorder {
  readonly #orm: Orm;
  readonly #intervalMs: number;
  readonly #maxBuffered: number;
  readonly #log: (message: string) => void;
  #buffer: ClickEvent[] = [];
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(orm: Orm, options: ClickRecorderOptions = {}) {
    this.#orm = orm;
    this.#intervalMs = options.flushIntervalMs ?? 1000;
    this.#maxBuffered = options.maxBuffered ?? 1_000_000;
    this.#log = options.log ?? (() => {});
  }

  record(event: ClickEvent): void {
    if (this.#buffer.length >= this.#maxBuffered) {
      this.#buffer.shift();
      this.#log('click buffer full (database unreachable?): dropping the oldest click');
    }
    this.#buffer.push(event);
  }

  get pending(): number {
    return this.#buffer.length;
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
    if (this.#buffer.length === 0) return;
    const batch = this.#buffer;
    this.#buffer = [];
    try {
      await sql`
        with events (link_id, occurred_at, referrer_host, agent_class) as (
          select * from unnest(
            ${batch.map((e) => e.linkId)}::text[],
            ${batch.map((e) => new Date(e.at).toISOString())}::timestamptz[],
            ${batch.map((e) => e.referrerHost)}::text[],
            ${batch.map((e) => e.agentClass)}::text[])
        ),
        recorded as (
          insert into click (link_id, occurred_at, referrer_host, agent_class)
          select e.link_id, e.occurred_at, e.referrer_host, e.agent_class from events e join link on link.id = e.link_id
        )
        update link set click_count = link.click_count + counted.clicks
        from (select link_id, count(*) as clicks from events group by link_id) counted
        where link.id = counted.link_id`.execute(this.#orm.em.fork().getKysely<Database>());
    } catch (error) {
      // Keep them for the next attempt (the database may be restarting).
      this.#buffer = batch.concat(this.#buffer);
      this.#log(`could not write ${batch.length} clicks: ${(error as Error).message}`);
      throw error;
    }
  }
}
