import type { Link, LinkPage } from '@shortlinks/contract';
import { LRUCache } from 'lru-cache';

/** What is kept: a link (GET /links/{id}) or a page of links (GET /links). */
export type LinkRead = Link | LinkPage;

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
  read: LinkRead;
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
 * The answers of `GET /links/{id}` (by account and `lnk_…`/`ext_…` reference) and of `GET /links`
 * (by account and query), in process, bounded by the number of links they hold (LRU). Only links
 * found are kept: an unknown reference is read every time, so guessing cannot fill the cache.
 *
 * Correct across processes only together with the announcements of account-links changes
 * (`ChangeListener`): it caches nothing until they arrive, and forgets everything when they may
 * have been missed. In this process, every mutation forgets its account's links before it is
 * answered (cache-coherence.ts), so a caller reads its own writes. A read that raced an invalidation does not
 * store what it read before it.
 */
export class LinkReadCache {
  readonly #entries: LRUCache<string, Entry>;
  readonly #ttlMs: number;
  readonly #generations = new Uint32Array(SLOTS);
  #epoch = 0;
  #enabled = false;

  /** `maxLinks`: how many links all entries hold together (a page holds up to 100). */
  constructor({ maxLinks = 20_000, ttlMs = LINK_READ_CACHE_MS }: { maxLinks?: number; ttlMs?: number } = {}) {
    this.#entries = new LRUCache({
      maxSize: maxLinks,
      sizeCalculation: ({ read }) => ('links' in read ? Math.max(1, read.links.length) : 1),
    });
    this.#ttlMs = ttlMs;
  }

  /** The link, or the page of links, kept for the account under `key` (a reference, or a page's query). */
  get(accountId: string, key: string, now = performance.now()): LinkRead | undefined {
    if (!this.#enabled) return undefined;
    const entryKey = `${accountId}\n${key}`;
    const entry = this.#entries.get(entryKey);
    if (entry === undefined) return undefined;
    if (now < entry.until && entry.epoch === this.#epoch && entry.generation === this.#generations[slotOf(accountId)]) return entry.read;
    this.#entries.delete(entryKey);
    return undefined;
  }

  snapshot(accountId: string, now = performance.now()): ReadSnapshot {
    const slot = slotOf(accountId);
    return { slot, generation: this.#generations[slot] ?? 0, epoch: this.#epoch, startedAt: now };
  }

  /** Keeps `read` unless the account's links were forgotten since `snapshot`. It is frozen: every reader shares it. */
  set(accountId: string, key: string, read: LinkRead, snapshot: ReadSnapshot): void {
    if (!this.#enabled || this.#ttlMs <= 0) return;
    if (snapshot.epoch !== this.#epoch || snapshot.generation !== this.#generations[snapshot.slot]) return;
    if ('links' in read) {
      for (const link of read.links) freezeLink(link);
      Object.freeze(read.links);
    } else {
      freezeLink(read);
    }
    this.#entries.set(`${accountId}\n${key}`, {
      read: Object.freeze(read),
      generation: snapshot.generation,
      epoch: snapshot.epoch,
      until: snapshot.startedAt + this.#ttlMs,
    });
  }

  /**
   * Forgets every link and page of the account: one of its links, a tag, a click count or its
   * limits changed, here or in another process.
   */
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

function freezeLink(link: Link): void {
  Object.freeze(link.tags);
  Object.freeze(link);
}

/** FNV-1a of the account's id, to a slot. */
function slotOf(accountId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < accountId.length; i++) hash = Math.imul(hash ^ accountId.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % SLOTS;
}
