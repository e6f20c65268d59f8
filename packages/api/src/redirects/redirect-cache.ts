import { LRUCache } from 'lru-cache';
import type { SmartRedirect } from './smart-redirect.ts';

/** Where a live link sends its visitors. */
export interface RedirectTarget {
  linkId: string;
  destination: string;
  /** Unix ms, or null when the link never expires. */
  expiresAt: number | null;
  expirationUrl: string | null;
  /**
   * A password, click limit, rules or preview (smart-redirect.ts); null for a plain link. The one
   * check the fast path makes: a plain link keeps today's path exactly.
   */
  smart: SmartRedirect | null;
}

/** Cached knowledge that no live link has this slug. */
export const NO_LINK = Symbol('no live link');
type Entry = RedirectTarget | typeof NO_LINK;

/** An answer kept from before announcements stopped, and when the database last gave it. */
interface KeptEntry {
  entry: Entry;
  knownAt: number;
}

/**
 * slug → redirect target, in process, bounded (LRU), with negative entries for unknown slugs.
 * Correct across processes only together with the link change announcements
 * (`LinkChangeListener`): while those are not arriving, nothing is trusted.
 *
 * What was cached when announcements stopped is not thrown away but kept apart, with the time it
 * was last known true: {@link kept} gives it to a visit that finds the database unreachable
 * (stale-if-error, docs/redirects.md). Announcements arriving again forget it: from then on the
 * cache is trusted and fills afresh.
 */
export class RedirectCache {
  readonly #entries: LRUCache<string, Entry>;
  readonly #kept: LRUCache<string, KeptEntry>;
  /** Bumped by every invalidation, so a lookup that raced one does not store a stale answer. */
  #epoch = 0;
  #enabled = true;
  /** For metrics: entries a link change removed, and times everything was forgotten. */
  invalidated = 0;
  resets = 0;

  constructor(maxEntries = 100_000) {
    this.#entries = new LRUCache({ max: maxEntries });
    this.#kept = new LRUCache({ max: maxEntries });
  }

  get(slug: string): Entry | undefined {
    return this.#enabled ? this.#entries.get(slug) : undefined;
  }

  /** A token to pass to {@link set}: the answer is stored only if nothing was invalidated since. */
  snapshot(): number {
    return this.#epoch;
  }

  /**
   * Stores what the database answered at `now`. While announcements are not arriving it is only
   * kept for an outage of the database, never served from the cache.
   */
  set(slug: string, entry: Entry, snapshot: number, now = Date.now()): void {
    if (snapshot !== this.#epoch) return;
    if (this.#enabled) this.#entries.set(slug, entry);
    else this.#kept.set(slug, { entry, knownAt: now });
  }

  invalidate(slug: string): void {
    this.#epoch++;
    if (this.#entries.delete(slug)) this.invalidated++;
    this.#kept.delete(slug);
  }

  /**
   * `enabled` false: announcements stopped; what the cache holds is kept apart (known true until
   * `now`) and nothing is served from it until they arrive again. `enabled` true: they arrive;
   * the cache starts empty and what was kept apart is forgotten.
   */
  reset(enabled: boolean, now = Date.now()): void {
    this.#epoch++;
    // Counted when trust changes (announcements lost, or back), not at each failed reconnection.
    if (enabled || this.#enabled) this.resets++;
    if (enabled) this.#kept.clear();
    else if (this.#enabled) {
      // Least recently used first, so the LRU order carries over.
      for (const slug of this.#entries.rkeys()) {
        const entry = this.#entries.peek(slug);
        if (entry !== undefined) this.#kept.set(slug, { entry, knownAt: now });
      }
    }
    this.#entries.clear();
    this.#enabled = enabled;
  }

  /** What was known of `slug` at most `maxAgeMs` before `now`, for a visit the database cannot answer. */
  kept(slug: string, now: number, maxAgeMs: number): Entry | undefined {
    const kept = this.#kept.get(slug);
    return kept !== undefined && now - kept.knownAt <= maxAgeMs ? kept.entry : undefined;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Entries kept apart for an outage of the database. */
  get keptSize(): number {
    return this.#kept.size;
  }
}
