import { LRUCache } from 'lru-cache';
import type { Caller } from './caller.ts';

/**
 * How long a caller found in PostgreSQL may be answered from memory, counted from the moment the
 * lookup began: the bound on how late a revocation or an account change can be seen by a process
 * that missed its announcement (docs/security.md).
 */
export const CALLER_CACHE_MS = 1_000;

interface Entry {
  caller: Caller;
  /** performance.now() past which the entry is not used. */
  until: number;
}

/**
 * Callers by the SHA-256 of their API key (the cache holds no secret), in process, bounded (LRU).
 * Only keys found live are kept: an unknown key is looked up every time, so guessing cannot fill
 * the cache. Every process forgets everything when a key is revoked or an account changes
 * (announced on commit, docs/architecture.md); an entry never outlives {@link CALLER_CACHE_MS}, so
 * a missed announcement delays nothing beyond that.
 */
export class CallerCache {
  readonly #entries: LRUCache<string, Entry>;
  readonly #ttlMs: number;
  /** Bumped by every invalidation, so a lookup that raced one does not store what it read before. */
  #epoch = 0;

  constructor({ maxEntries = 10_000, ttlMs = CALLER_CACHE_MS }: { maxEntries?: number; ttlMs?: number } = {}) {
    this.#entries = new LRUCache({ max: maxEntries });
    this.#ttlMs = ttlMs;
  }

  get(secretHash: string, now = performance.now()): Caller | undefined {
    const entry = this.#entries.get(secretHash);
    if (entry === undefined) return undefined;
    if (now < entry.until) return entry.caller;
    this.#entries.delete(secretHash);
    return undefined;
  }

  /** Taken before a lookup, and passed to {@link set} with what it found. */
  snapshot(now = performance.now()): { epoch: number; startedAt: number } {
    return { epoch: this.#epoch, startedAt: now };
  }

  set(secretHash: string, caller: Caller, snapshot: { epoch: number; startedAt: number }): void {
    if (snapshot.epoch === this.#epoch) this.#entries.set(secretHash, { caller, until: snapshot.startedAt + this.#ttlMs });
  }

  /** Forgets every caller: a key was revoked or an account changed, here or in another process. */
  clear(): void {
    this.#epoch++;
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}
