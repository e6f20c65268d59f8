import { LIMITS } from '@shortlinks/contract';
import type { DestinationChecker } from './destination-checker.ts';
import type { Utm } from './utm.ts';

/** The URL checks a link body needs (destinations.ts): a request's own, or a bulk call's shared ones. */
export type UrlChecks = Pick<DestinationChecker, 'finalDestination' | 'fallback' | 'otherDestination'>;

/**
 * URL checks one bulk call runs at the same time at most. Each asks the stored denylist (one short
 * query of a pool of 10 connections) and then the remote service, if any: enough to finish 100
 * items in a few rounds, not so many that one call crowds out everyone else's checks.
 */
export const BULK_URL_CHECKS_AT_ONCE = 16;

/** URL checks a bulk call of plain links needs at most: a destination_url and an expiration_url for each of its items. */
const PLAIN_URL_CHECKS = LIMITS.bulkItems * 2;

/**
 * A bulk call waits on its URL checks at most this many times as long as one check
 * (REPUTATION_TIMEOUT_MS): every check is asked for at once and runs as soon as one of the
 * call's places is free, so the n-th starts within floor(n / places) checks' time. The server's
 * idle timeout must outlast it (apps/server/src/env.ts).
 */
export const BULK_URL_CHECK_ROUNDS = Math.ceil(PLAIN_URL_CHECKS / BULK_URL_CHECKS_AT_ONCE);

/**
 * The places of a call that asks `urls` checks: {@link BULK_URL_CHECKS_AT_ONCE}, or more when
 * its items carry more URLs than plain links do (up to 20 rules' destinations and a preview's
 * image each, issue #30), so its checks still fit {@link BULK_URL_CHECK_ROUNDS} checks' time.
 */
export function placesFor(urls: number): number {
  return Math.max(BULK_URL_CHECKS_AT_ONCE, Math.ceil(urls / BULK_URL_CHECK_ROUNDS));
}

/**
 * The URL checks of one bulk call's items, asked before any item's transaction: at most
 * {@link placesFor} the URLs its items carry at a time, and each distinct URL once, its answer (or refusal)
 * shared by every item that names it. The checks are those of the single call, so each item is
 * refused with the same error its single call would give.
 */
export class SharedUrlChecks implements UrlChecks {
  readonly #checker: UrlChecks;
  readonly #asked = new Map<string, Promise<string>>();
  /** Checks run at once at most. */
  readonly #places: number;
  /** Checks running now, and the checks waiting for a place, first come first served. */
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  /** `urls`: how many URLs the call's items carry (each counted, shared or not); none: a plain call's share. */
  constructor(checker: UrlChecks, urls = 0) {
    this.#checker = checker;
    this.#places = placesFor(urls);
  }

  finalDestination(field: 'destination_url', url: string, utm: Utm | undefined): Promise<string> {
    return this.#once(JSON.stringify([field, url, utm ?? null]), () => this.#checker.finalDestination(field, url, utm));
  }

  otherDestination(field: string, url: string, utm: Utm | undefined): Promise<string> {
    return this.#once(JSON.stringify([field, url, utm ?? null]), () => this.#checker.otherDestination(field, url, utm));
  }

  fallback(url: string): Promise<string> {
    return this.#once(JSON.stringify(['expiration_url', url]), () => this.#checker.fallback(url));
  }

  #once(key: string, check: () => Promise<string>): Promise<string> {
    let answer = this.#asked.get(key);
    if (!answer) {
      answer = this.#inTurn(check);
      this.#asked.set(key, answer);
    }
    return answer;
  }

  async #inTurn(check: () => Promise<string>): Promise<string> {
    if (this.#running >= this.#places) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#running += 1;
    try {
      return await check();
    } finally {
      // The place passes straight to the next check waiting, if any.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running -= 1;
    }
  }
}
