import type { Link } from '@shortlinks/contract';
import { LRUCache } from 'lru-cache';

/**
 * How long a link read from PostgreSQL may be answered from memory, counted from the moment the
 * read began: the bound on how late a change can be seen by a process that missed its
 * announcement (docs/architecture.md, "What a process keeps in memory").
 */
export const LINK_READ_CACHE_MS = 1_000;

/**
 * Accounts are forgotten by bumping a generation in one of this many slots (an account's id
 * hashed): bounded memory whatever the number of accounts; two accounts sharing a slot only
 * forget each other's links.
 */
const SLOTS = 4096;

interface Entry {
  link: Link;
  /** The generation of the account's slot, and the cache's epoch, when the read began. */
  generation: number;
  epoch: number;
  /** performance.now() past which the entry is not used. */
  until: number;
}

/** Taken before a read, and passed to {@link LinkReadCache.set} with what it found. */
export interface ReadSnapshot {
  slot: number;
  generation: number;
  epoch: number;
  startedAt: number;
}

/**
 * `GET /links/{id}` answers by account and reference (`lnk_…` or `ext_…`), in process, bounded
 * (LRU). Only links found are kept: an unknown reference is read every time, so guessing cannot
 * fill the cache.
 *
 * Correct across processes only together with the announcements of account-links changes
 * (`ChangeListener`): it caches nothing until they arrive, and forgets everything when they may
 * have been missed. In this process, every mutation forgets its account's links before it is
 * answered (trpc.ts), so a caller reads its own writes. A read that raced an invalidation does not
 * store what it read before it.
 */
export class LinkReadCache {
  readonly #entries: LRUCache<string, Entry>;
  readonly #ttlMs: number;
  readonly #generations = new Uint32Array(SLOTS);
  #epoch = 0;
  #enabled = false;

  constructor({ maxEntries = 10_000, ttlMs = LINK_READ_CACHE_MS }: { maxEntries?: number; ttlMs?: number } = {}) {
    this.#entries = new LRUCache({ max: maxEntries });
    this.#ttlMs = ttlMs;
  }

  get(accountId: string, ref: string, now = performance.now()): Link | undefined {
    if (!this.#enabled) return undefined;
    const key = entryKey(accountId, ref);
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (now < entry.until && entry.epoch === this.#epoch && entry.generation === this.#generations[slotOf(accountId)]) return entry.link;
    this.#entries.delete(key);
    return undefined;
  }

  snapshot(accountId: string, now = performance.now()): ReadSnapshot {
    const slot = slotOf(accountId);
    return { slot, generation: this.#generations[slot] ?? 0, epoch: this.#epoch, startedAt: now };
  }

  /** Keeps `link` unless the account's links were forgotten since `snapshot`. The link is frozen: every reader shares it. */
  set(accountId: string, ref: string, link: Link, snapshot: ReadSnapshot): void {
    if (!this.#enabled || snapshot.epoch !== this.#epoch || snapshot.generation !== this.#generations[snapshot.slot]) return;
    Object.freeze(link.tags);
    this.#entries.set(entryKey(accountId, ref), {
      link: Object.freeze(link),
      generation: snapshot.generation,
      epoch: snapshot.epoch,
      until: snapshot.startedAt + this.#ttlMs,
    });
  }

  /** Forgets every link of the account: one of them, a tag or a click count changed, here or in another process. */
  forgetAccount(accountId: string): void {
    const slot = slotOf(accountId);
    this.#generations[slot] = ((this.#generations[slot] ?? 0) + 1) >>> 0;
  }

  /** Forgets everything (clicks were written for many accounts). */
  clear(): void {
    this.#epoch++;
    this.#entries.clear();
  }

  /** Forgets everything; `enabled` false stops caching until announcements arrive again. */
  reset(enabled: boolean): void {
    this.clear();
    this.#enabled = enabled;
  }

  get size(): number {
    return this.#entries.size;
  }
}

function entryKey(accountId: string, ref: string): string {
  return `${accountId}\n${ref}`;
}

/** FNV-1a of the account's id, to a slot. */
function slotOf(accountId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < accountId.length; i++) hash = Math.imul(hash ^ accountId.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % SLOTS;
}
