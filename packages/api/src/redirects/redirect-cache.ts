import { LRUCache } from 'lru-cache';

/** Where a live link sends its visitors. */
export interface RedirectTarget {
  linkId: string;
  destination: string;
  /** Unix ms, or null when the link never expires. */
  expiresAt: number | null;
  expirationUrl: string | null;
}

/** Cached knowledge that no live link has this slug. */
export const NO_LINK = Symbol('no live link');
type Entry = RedirectTarget | typeof NO_LINK;

/**
 * slug → redirect target, in process, bounded (LRU), with negative entries for unknown slugs.
 * Correct across processes only together with the link change announcements
 * (`LinkChangeListener`): while those are not arriving, nothing is cached.
 */
export class RedirectCache {
  readonly #entries: LRUCache<string, Entry>;
  /** Bumped by every invalidation, so a lookup that raced one does not store a stale answer. */
  #epoch = 0;
  #enabled = true;
  /** For metrics: entries a link change removed, and times everything was forgotten. */
  invalidated = 0;
  resets = 0;

  constructor(maxEntries = 100_000) {
    this.#entries = new LRUCache({ max: maxEntries });
  }

  get(slug: string): Entry | undefined {
    return this.#enabled ? this.#entries.get(slug) : undefined;
  }

  /** A token to pass to {@link set}: the answer is stored only if nothing was invalidated since. */
  snapshot(): number {
    return this.#epoch;
  }

  set(slug: string, entry: Entry, snapshot: number): void {
    if (this.#enabled && snapshot === this.#epoch) this.#entries.set(slug, entry);
  }

  invalidate(slug: string): void {
    this.#epoch++;
    if (this.#entries.delete(slug)) this.invalidated++;
  }

  /** Forgets everything; `enabled` false stops caching until announcements arrive again. */
  reset(enabled: boolean): void {
    this.#epoch++;
    this.#entries.clear();
    this.#enabled = enabled;
    this.resets++;
  }

  get size(): number {
    return this.#entries.size;
  }
}
