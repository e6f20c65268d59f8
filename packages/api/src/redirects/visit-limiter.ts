import { LRUCache } from 'lru-cache';

/**
 * The longest address the rate limits keep, this limiter's and the API's (an IPv6 address with an
 * IPv4 tail is 45 characters). Behind a proxy trusted for every hop (`TRUST_PROXY=true`) the
 * address comes from a header the visitor wrote, up to 16 KiB: kept whole, 50,000 of them would
 * hold 800 MB.
 */
const ADDRESS_CHARS = 64;

/** An address as the rate limits keep it: forged addresses sharing their first 64 characters share a budget, the forger's own. */
export function boundedAddress(address: string): string {
  return address.length > ADDRESS_CHARS ? address.slice(0, ADDRESS_CHARS) : address;
}

/** One address's current window. */
interface VisitWindow {
  startedAt: number;
  visits: number;
}

/**
 * Short-link visits per visitor address, in fixed windows (docs/security.md), counted
 * synchronously inside the redirect route: the API's limiter, @fastify/rate-limit, runs as an
 * async hook with several awaits per request, a measurable share of a visit's cost
 * (docs/performance.md). The semantics are the same: fixed windows, at most `trackedAddresses`
 * counted, the least recently seen forgotten first, per process.
 */
export class VisitLimiter {
  readonly max: number;
  readonly #windowMs: number;
  readonly #windows: LRUCache<string, VisitWindow>;

  constructor(max: number, windowMs: number, trackedAddresses: number) {
    this.max = max;
    this.#windowMs = windowMs;
    this.#windows = new LRUCache({ max: trackedAddresses });
  }

  /**
   * Counts a visit from `address` at `now` (Unix ms): undefined when it is within the limit, else
   * the whole seconds until its window ends (the visit is refused).
   */
  countVisit(address: string, now: number): number | undefined {
    address = boundedAddress(address);
    let window = this.#windows.get(address);
    if (window === undefined || now - window.startedAt >= this.#windowMs) {
      window = { startedAt: now, visits: 0 };
      this.#windows.set(address, window);
    }
    window.visits++;
    if (window.visits <= this.max) return undefined;
    return Math.max(1, Math.ceil((window.startedAt + this.#windowMs - now) / 1000));
  }
}
