import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import pg from 'pg';
import type { Database } from './entities/index.ts';

/** The PostgreSQL channel on which a changed link's slug is announced to every server process. */
export const LINK_CHANGES_CHANNEL = 'shortlinks_link_changes';

/** Announces, when the surrounding transaction commits, that the link at `slug` changed. */
export async function announceLinkChange(db: Kysely<Database>, slug: string): Promise<void> {
  await sql`select pg_notify(${LINK_CHANGES_CHANNEL}, ${slug})`.execute(db);
}

export interface LinkChangeHandlers {
  /** A link at this slug was created, changed or deleted. */
  changed(slug: string): void;
  /**
   * Announcements may have been missed (first connection, or a reconnection): anything cached
   * about links must be forgotten. `connected` tells whether announcements now arrive.
   */
  reset(connected: boolean): void;
  log?: (message: string) => void;
}

/**
 * Listens to link changes on a dedicated connection (LISTEN needs one), reconnecting with
 * backoff when the connection drops.
 */
export class LinkChangeListener {
  readonly #url: string;
  readonly #handlers: LinkChangeHandlers;
  #client: pg.Client | undefined;
  #stopped = false;
  #retry: NodeJS.Timeout | undefined;

  constructor(databaseUrl: string, handlers: LinkChangeHandlers) {
    this.#url = databaseUrl;
    this.#handlers = handlers;
  }

  /** Resolves once listening (or after the first failed attempt, which is retried in the background). */
  async start(): Promise<void> {
    await this.#connect(250);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }

  async #connect(backoffMs: number): Promise<void> {
    if (this.#stopped) return;
    const client = new pg.Client({ connectionString: this.#url });
    const lost = (reason: string) => {
      if (this.#client !== client || this.#stopped) return;
      this.#client = undefined;
      this.#handlers.log?.(`link change listener lost its connection (${reason}); retrying`);
      this.#handlers.reset(false);
      this.#retry = setTimeout(() => void this.#connect(Math.min(backoffMs * 2, 10_000)), backoffMs);
    };
    client.on('notification', (message) => {
      if (message.channel === LINK_CHANGES_CHANNEL && message.payload) this.#handlers.changed(message.payload);
    });
    client.on('error', (error) => lost(error.message));
    client.on('end', () => lost('connection ended'));
    try {
      await client.connect();
      await client.query(`listen ${LINK_CHANGES_CHANNEL}`);
      this.#client = client;
      if (this.#stopped) {
        await client.end();
        return;
      }
      this.#handlers.reset(true);
    } catch (error) {
      await client.end().catch(() => {});
      this.#handlers.log?.(`link change listener could not connect (${(error as Error).message}); retrying`);
      this.#handlers.reset(false);
      this.#retry = setTimeout(() => void this.#connect(Math.min(backoffMs * 2, 10_000)), backoffMs);
    }
  }
}
