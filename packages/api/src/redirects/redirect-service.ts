import type { Orm } from '@shortlinks/db';
import { isDatabaseUnavailable } from '@shortlinks/db';
import { sql } from 'kysely';
import { reader } from '../database/database.ts';
import { SMART_LINK_FIELDS } from '../links/smart-link-fields.ts';
import { NO_LINK, RedirectCache, type RedirectTarget } from './redirect-cache.ts';
import { parseRedirectKey } from './redirect-key.ts';
import { type SmartRedirect, smartRedirectOf } from './smart-redirect.ts';

/**
 * How long a link seen before the database became unreachable keeps redirecting (stale-if-error,
 * docs/redirects.md), unless configured (`REDIRECT_STALE_IF_ERROR_SECONDS`). Long enough to
 * outlast a restart or a failover, and a repair; bounded, because a link deleted meanwhile on
 * another server (a database reachable from there only) keeps redirecting here for as long.
 */
export const DEFAULT_STALE_IF_ERROR_MS = 3_600_000;

/**
 * After a read found the database unreachable, visits are answered without asking it for this
 * long: a database that is not answering at all (a host gone) would otherwise hold every visit
 * for the pool's connection timeout.
 */
const OUTAGE_RETRY_MS = 1000;

/** What a visit of `/{slug}` gets. */
export type RedirectOutcome =
  | { kind: 'redirect'; location: string; linkId: string }
  /** A link with a password, click limit, rules or preview: the visit decides (smart-visits.ts). */
  | { kind: 'smart'; target: RedirectTarget & { smart: SmartRedirect } }
  /** Expired without an expiration_url (docs/redirects.md). */
  | { kind: 'gone' }
  | { kind: 'not_found' }
  /** The database cannot be reached and nothing recent is known of the slug: 503, retry (docs/redirects.md). */
  | { kind: 'unavailable' };

/** Resolves slugs to redirects, from the cache when it can and from PostgreSQL when it must. */
export class RedirectService {
  readonly cache: RedirectCache;
  readonly #orm: Orm;
  /** Lookups under way, so a burst of visits to one uncached slug costs one query, not one each. */
  readonly #loading = new Map<string, Promise<RedirectTarget | undefined>>();
  readonly #staleIfErrorMs: number;
  /** When a read last found the database unreachable; 0 once one succeeds. */
  #unreachableAt = 0;

  constructor(orm: Orm, { cache = new RedirectCache(), staleIfErrorMs = DEFAULT_STALE_IF_ERROR_MS } = {}) {
    this.#orm = orm;
    this.cache = cache;
    this.#staleIfErrorMs = staleIfErrorMs;
  }

  /**
   * The outcome from the cache alone; undefined when the slug is not cached (then {@link resolve}).
   * `slug` here and below is the slug's key on its domain (redirect-key.ts).
   */
  resolveCached(slug: string, now: number): RedirectOutcome | undefined {
    const entry = this.cache.get(slug);
    return entry === undefined ? undefined : outcomeOf(entry, now);
  }

  async resolve(slug: string, now: number): Promise<RedirectOutcome> {
    const cached = this.resolveCached(slug, now);
    if (cached) return cached;
    if (now - this.#unreachableAt < OUTAGE_RETRY_MS) return this.#whileUnreachable(slug, now);
    const snapshot = this.cache.snapshot();
    let entry: RedirectTarget | typeof NO_LINK;
    try {
      entry = (await this.#loadOnce(slug)) ?? NO_LINK;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      this.#unreachableAt = Date.now();
      return this.#whileUnreachable(slug, now);
    }
    this.#unreachableAt = 0;
    this.cache.set(slug, entry, snapshot, now);
    return outcomeOf(entry, now);
  }

  /**
   * A visit the database cannot answer: a link seen recently keeps redirecting (or stays expired).
   * A slug known to be free, or not known at all, is 503 and not 404: a link may have it by now.
   */
  #whileUnreachable(slug: string, now: number): RedirectOutcome {
    const kept = this.cache.kept(slug, now, this.#staleIfErrorMs);
    return kept === undefined || kept === NO_LINK ? { kind: 'unavailable' } : outcomeOf(kept, now);
  }

  #loadOnce(slug: string): Promise<RedirectTarget | undefined> {
    let loading = this.#loading.get(slug);
    if (!loading) {
      loading = this.#load(slug).finally(() => this.#loading.delete(slug));
      this.#loading.set(slug, loading);
    }
    return loading;
  }

  /** `key`: the slug on its domain (redirect-key.ts). */
  async #load(key: string): Promise<RedirectTarget | undefined> {
    const { domainId, slug } = parseRedirectKey(key);
    // Converted: `expires_at` comes as a Date. A miss is read once per slug, then cached.
    // The domain as link_slug_live_key holds it, so the index answers.
    const row = await reader(this.#orm)
      .selectFrom('link')
      .select(['id', 'destination_url', 'expires_at', 'expiration_url', ...SMART_LINK_FIELDS])
      .where(sql<string>`coalesce(domain_id, '')`, '=', domainId ?? '')
      .where('slug', '=', slug)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      linkId: row.id,
      destination: row.destination_url,
      expiresAt: row.expires_at?.getTime() ?? null,
      expirationUrl: row.expiration_url,
      smart: smartRedirectOf(row),
    };
  }
}

/** What a visit at `now` gets from a cached (or just loaded) entry; past expires_at, the fallback or 410. */
function outcomeOf(entry: RedirectTarget | typeof NO_LINK, now: number): RedirectOutcome {
  if (entry === NO_LINK) return { kind: 'not_found' };
  if (entry.smart !== null) return { kind: 'smart', target: entry as RedirectTarget & { smart: SmartRedirect } };
  if (entry.expiresAt !== null && now >= entry.expiresAt) {
    return entry.expirationUrl ? { kind: 'redirect', location: entry.expirationUrl, linkId: entry.linkId } : { kind: 'gone' };
  }
  return { kind: 'redirect', location: entry.destination, linkId: entry.linkId };
}
