import { LRUCache } from 'lru-cache';

/**
 * The guessing limits of password-protected links (issue #30, docs/redirects.md): wrong passwords
 * are counted per link and visitor, and per link across all visitors, in a fixed window.
 * A visitor past {@link PER_VISITOR} wrong answers in the window, or anyone once the link is past
 * {@link PER_LINK}, is refused (429) before the password is even checked, right or wrong: a limit
 * that let the right answer through would still tell a guesser when it found it.
 *
 * Counted where the server counts its API rate limits: with several instances and REDIS_URL, once
 * for all of them (docs/redirects.md).
 */
export const PASSWORD_GUESS_WINDOW_MS = 10 * 60_000;
/** Wrong passwords one visitor (address, IPv6 by /64) may send one link per window. */
export const PER_VISITOR = 10;
/**
 * Wrong passwords one link takes per window from everyone together, against guessing spread over
 * many addresses: 100 per 10 minutes is 14,400 a day, against the 81 million passwords of even
 * 4 printable ASCII characters. Past it, visitors who have not unlocked the link wait for the
 * window to end; those holding its cookie pass.
 */
export const PER_LINK = 100;

/**
 * Counters in fixed windows, as the server's rate limits keep them (apps/server/src/rate-counts.ts:
 * this process's memory, or Redis shared by every instance): `take` adds `units` when the count
 * stays within `max`, and says how long the window has left.
 */
export interface GuessCounts {
  take(key: string, units: number, windowMs: number, max: number): Promise<{ taken: boolean; ttl: number }>;
}

interface Window {
  startedAt: number;
  count: number;
}

/** The counts in this process's memory (a server without shared counters, and unit tests), bounded. */
export class MemoryGuessCounts implements GuessCounts {
  readonly #windows = new LRUCache<string, Window>({ max: 100_000 });
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  async take(key: string, units: number, windowMs: number, max: number): Promise<{ taken: boolean; ttl: number }> {
    const now = this.#now();
    let window = this.#windows.get(key);
    if (!window || now - window.startedAt >= windowMs) {
      window = { startedAt: now, count: 0 };
      this.#windows.set(key, window);
    }
    const taken = window.count + units <= max;
    if (taken) window.count += units;
    return { taken, ttl: window.startedAt + windowMs - now };
  }
}

/**
 * Counted where the server counts its rate limits (`GuessCounts`): with several instances behind
 * one Redis, the limits hold across all of them, so a guesser gains nothing from spreading its
 * guesses over instances.
 */
export class PasswordGuesses {
  readonly #counts: GuessCounts;
  readonly #perVisitor: number;
  readonly #perLink: number;
  readonly #windowMs: number;

  constructor({
    counts = new MemoryGuessCounts(),
    perVisitor = PER_VISITOR,
    perLink = PER_LINK,
    windowMs = PASSWORD_GUESS_WINDOW_MS,
  }: { counts?: GuessCounts; perVisitor?: number; perLink?: number; windowMs?: number } = {}) {
    this.#counts = counts;
    this.#perVisitor = perVisitor;
    this.#perLink = perLink;
    this.#windowMs = windowMs;
  }

  /** Whole seconds until `visitor` may try `linkId` again; undefined when it may now. */
  async refusal(linkId: string, visitor: string): Promise<number | undefined> {
    let wait: number | undefined;
    for (const [key, max] of this.#keys(linkId, visitor)) {
      // Taking nothing fits only while the count is below `max`: a read of the window's count.
      const { taken, ttl } = await this.#counts.take(key, 0, this.#windowMs, max - 1);
      if (!taken) wait = Math.max(wait ?? 0, Math.max(1, Math.ceil(ttl / 1000)));
    }
    return wait;
  }

  /** Counts a wrong password. */
  async wrong(linkId: string, visitor: string): Promise<void> {
    for (const [key] of this.#keys(linkId, visitor)) await this.#counts.take(key, 1, this.#windowMs, Number.MAX_SAFE_INTEGER);
  }

  #keys(linkId: string, visitor: string): [key: string, max: number][] {
    return [
      [`link-password:${linkId}:${visitor}`, this.#perVisitor],
      [`link-password:${linkId}`, this.#perLink],
    ];
  }
}
