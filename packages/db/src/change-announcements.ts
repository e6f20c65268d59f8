import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import pg from 'pg';
import { CONNECT_TIMEOUT_MS, DEFAULT_QUERY_TIMEOUT_MS } from './bounded-client.ts';
import type { Database } from './entities/index.ts';
import { KEEP_ALIVE_AFTER_MS } from './orm.ts';

/**
 * The PostgreSQL channel on which a changed link's slug is announced to every server process.
 * Triggers announce it, whoever writes (Migration20261127100000_link_slug_changes).
 */
export const LINK_CHANGES_CHANNEL = 'shortlinks_link_changes';

/**
 * The channel on which every change to who an API key's caller is (a key revoked, an account's
 * plan or limits changed) is announced; the payload names the account.
 */
export const CALLER_CHANGES_CHANNEL = 'shortlinks_caller_changes';

/**
 * The channel on which every change to what a link read answers (a link, its tags, its click
 * count) is announced, with the account's id as the payload. Triggers announce it, whoever writes
 * (Migration20261127090000_account_links_changes).
 */
export const ACCOUNT_LINKS_CHANNEL = 'shortlinks_account_links';

/**
 * The channel on which every change to a branded domain (added, verified, stopped, changed,
 * deleted) is announced with the domain's id, by triggers (Migration20261127112800_domains):
 * every process learns at once which hosts it serves.
 */
export const DOMAIN_CHANGES_CHANNEL = 'shortlinks_domain_changes';

/**
 * Announces, when the surrounding transaction commits, that what an API key of this account
 * stands for changed (a key revoked, the plan or a limit changed): every process forgets the
 * callers it keeps in memory.
 */
export async function announceCallerChange(db: Kysely<Database>, accountId: string): Promise<void> {
  await sql`select pg_notify(${CALLER_CHANGES_CHANNEL}, ${accountId})`.execute(db);
}

export interface ChangeHandlers {
  /** A link at this slug was created, changed or deleted. */
  linkChanged(slug: string): void;
  /** A key of this account was revoked, or the account's plan or limits changed. */
  callerChanged(accountId: string): void;
  /** A link of this account, or a tag on one, or its click count changed. */
  accountLinksChanged(accountId: string): void;
  /** A branded domain was added, verified, stopped, changed or deleted. */
  domainChanged?(domainId: string): void;
  /**
   * Announcements may have been missed (first connection, or a reconnection): anything cached
   * about links or callers must be forgotten. `connected` tells whether announcements now arrive.
   */
  reset(connected: boolean): void;
  log?: (message: string) => void;
}

/** How the listener's connection is named in `pg_stat_activity`. */
export const LISTENER_APPLICATION_NAME = 'shortlinks change listener';

/** How often the listener asks its connection whether the database still answers, and how long it waits. */
export interface Heartbeat {
  everyMs: number;
  timeoutMs: number;
}

/**
 * A listening connection only receives, so a database that stops answering (rather than closing
 * the connection) would leave it waiting, trusted, for ever: TCP keep-alive probes are answered
 * by the database host's kernel even while PostgreSQL itself is frozen. A `select 1` every 5 s,
 * given 5 s to answer, finds such a connection within about 10 s.
 */
export const DEFAULT_HEARTBEAT: Heartbeat = { everyMs: 5000, timeoutMs: DEFAULT_QUERY_TIMEOUT_MS };

/**
 * Listens to link, caller and account-links changes on one dedicated connection (LISTEN needs one), reconnecting
 * with backoff when the connection drops.
 */
export class ChangeListener {
  readonly #url: string;
  readonly #handlers: ChangeHandlers;
  #client: pg.Client | undefined;
  #stopped = false;
  #retry: NodeJS.Timeout | undefined;
  readonly #heartbeat: Heartbeat;
  #nextBeat: NodeJS.Timeout | undefined;

  constructor(databaseUrl: string, handlers: ChangeHandlers, heartbeat: Heartbeat = DEFAULT_HEARTBEAT) {
    this.#url = databaseUrl;
    this.#handlers = handlers;
    this.#heartbeat = heartbeat;
  }

  /** Resolves once listening (or after the first failed attempt, which is retried in the background). */
  async start(): Promise<void> {
    await this.#connect(250);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retry);
    clearTimeout(this.#nextBeat);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }

  async #connect(backoffMs: number): Promise<void> {
    if (this.#stopped) return;
    // Keep-alive probes: a listener whose host vanished is noticed (and the caches stop trusting
    // it) in the system's keep-alive time rather than never.
    const client = new pg.Client({
      connectionString: this.#url,
      application_name: LISTENER_APPLICATION_NAME,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEP_ALIVE_AFTER_MS,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: this.#heartbeat.timeoutMs,
    });
    const lost = (reason: string) => {
      if (this.#client !== client || this.#stopped) return;
      this.#client = undefined;
      clearTimeout(this.#nextBeat);
      // A connection whose statement went unanswered is still open: close it, or it would
      // deliver announcements again after the new one is listening.
      void client.end().catch(() => {});
      this.#handlers.log?.(`change listener lost its connection (${reason}); retrying`);
      this.#handlers.reset(false);
      this.#retry = setTimeout(() => void this.#connect(Math.min(backoffMs * 2, 10_000)), backoffMs);
    };
    client.on('notification', (message) => {
      if (!message.payload) return;
      if (message.channel === LINK_CHANGES_CHANNEL) this.#handlers.linkChanged(message.payload);
      else if (message.channel === CALLER_CHANGES_CHANNEL) this.#handlers.callerChanged(message.payload);
      else if (message.channel === ACCOUNT_LINKS_CHANNEL) this.#handlers.accountLinksChanged(message.payload);
      else if (message.channel === DOMAIN_CHANGES_CHANNEL) this.#handlers.domainChanged?.(message.payload);
    });
    client.on('error', (error) => lost(error.message));
    client.on('end', () => lost('connection ended'));
    try {
      await client.connect();
      await client.query(
        `listen ${LINK_CHANGES_CHANNEL}; listen ${CALLER_CHANGES_CHANNEL}; listen ${ACCOUNT_LINKS_CHANNEL}; listen ${DOMAIN_CHANGES_CHANNEL}`,
      );
      this.#client = client;
      if (this.#stopped) {
        await client.end();
        return;
      }
      this.#handlers.reset(true);
      this.#beat(client, lost);
    } catch (error) {
      await client.end().catch(() => {});
      this.#handlers.log?.(`change listener could not connect (${(error as Error).message}); retrying`);
      this.#handlers.reset(false);
      this.#retry = setTimeout(() => void this.#connect(Math.min(backoffMs * 2, 10_000)), backoffMs);
    }
  }

  /** Asks `client` every `everyMs` whether the database answers; one unanswered within `timeoutMs` loses it. */
  #beat(client: pg.Client, lost: (reason: string) => void): void {
    this.#nextBeat = setTimeout(() => {
      client.query('select 1').then(
        () => {
          if (this.#client === client) this.#beat(client, lost);
        },
        (error: Error) => lost(`no answer to a heartbeat: ${error.message}`),
      );
    }, this.#heartbeat.everyMs);
    this.#nextBeat.unref();
  }
}
