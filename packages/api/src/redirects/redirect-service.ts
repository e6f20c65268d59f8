import type { Database, Orm } from '@shortlinks/db';
import { NO_LINK, RedirectCache, type RedirectTarget } from './redirect-cache.ts';

/** What a visit of `/{slug}` gets. */
export type RedirectOutcome =
  | { kind: 'redirect'; location: string; linkId: string }
  /** Expired without an expiration_url (docs/redirects.md). */
  | { kind: 'gone' }
  | { kind: 'not_found' };

/** Resolves slugs to redirects, from the cache when it can and from PostgreSQL when it must. */
export class RedirectService {
  readonly cache: RedirectCache;
  readonly #orm: Orm;
  /** Lookups under way, so a burst of visits to one uncached slug costs one query, not one each. */
  readonly #loading = new Map<string, Promise<RedirectTarget | undefined>>();

  constructor(orm: Orm, cache = new RedirectCache()) {
    this.#orm = orm;
    this.cache = cache;
  }

  /** The outcome from the cache alone; undefined when the slug is not cached (then {@link resolve}). */
  resolveCached(slug: string, now: number): RedirectOutcome | undefined {
    const entry = this.cache.get(slug);
    return entry === undefined ? undefined : outcomeOf(entry, now);
  }

  async resolve(slug: string, now: number): Promise<RedirectOutcome> {
    const cached = this.resolveCached(slug, now);
    if (cached) return cached;
    const snapshot = this.cache.snapshot();
    const entry = (await this.#loadOnce(slug)) ?? NO_LINK;
    this.cache.set(slug, entry, snapshot);
    return outcomeOf(entry, now);
  }

  #loadOnce(slug: string): Promise<RedirectTarget | undefined> {
    let loading = this.#loading.get(slug);
    if (!loading) {
      loading = this.#load(slug).finally(() => this.#loading.delete(slug));
      this.#loading.set(slug, loading);
    }
    return loading;
  }

  async #load(slug: string): Promise<RedirectTarget | undefined> {
    const row = await this.#orm.em
      .fork()
      .getKysely<Database>({ convertValues: true })
      .selectFrom('link')
      .select(['id', 'destination_url', 'expires_at', 'expiration_url'])
      .where('slug', '=', slug)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      linkId: row.id,
      destination: row.destination_url,
      expiresAt: row.expires_at?.getTime() ?? null,
      expirationUrl: row.expiration_url,
    };
  }
}

/** What a visit at `now` gets from a cached (or just loaded) entry; past expires_at, the fallback or 410. */
function outcomeOf(entry: RedirectTarget | typeof NO_LINK, now: number): RedirectOutcome {
  if (entry === NO_LINK) return { kind: 'not_found' };
  if (entry.expiresAt !== null && now >= entry.expiresAt) {
    return entry.expirationUrl ? { kind: 'redirect', location: entry.expirationUrl, linkId: entry.linkId } : { kind: 'gone' };
  }
  return { kind: 'redirect', location: entry.destination, linkId: entry.linkId };
}
