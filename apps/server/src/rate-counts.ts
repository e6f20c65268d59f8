import type { FastifyRateLimitStore } from '@fastify/rate-limit';

/** What a key has counted in its window: units spent, and milliseconds until the window ends. */
export interface WindowCount {
  current: number;
  ttl: number;
}

/**
 * The API's rate-limit counters as @fastify/rate-limit keeps them (its `incr`: 1 per request as it
 * arrives), and the rest of a request's weight once its body is read (`take`, call-weight.ts in
 * @shortlinks/api): taken all or not at all, so a request that does not fit does nothing.
 */
export interface RateCounts extends FastifyRateLimitStore {
  /** Adds `units` to the key's count if they fit in `max`; otherwise leaves it as it is. */
  take(key: string, units: number, timeWindow: number, max: number): Promise<WindowCount & { taken: boolean }>;
}

/**
 * The counters in this process's memory: fixed windows starting at a key's first request, as the
 * plugin's own LocalStore counts them, for at most `trackedClients` keys (the least recently seen
 * forgotten first). The plugin's store cannot add more than one at a time, hence this one.
 */
export class LocalRateCounts implements RateCounts {
  readonly #windows = new Map<string, { current: number; startedAt: number }>();
  readonly #trackedClients: number;

  constructor(trackedClients: number) {
    this.#trackedClients = trackedClients;
  }

  incr(...[key, callback, timeWindow]: Parameters<FastifyRateLimitStore['incr']>): void {
    const window = this.#windowOf(key, timeWindow);
    window.current += 1;
    callback(null, { current: window.current, ttl: window.startedAt + timeWindow - Date.now() });
  }

  async take(key: string, units: number, timeWindow: number, max: number): Promise<WindowCount & { taken: boolean }> {
    const window = this.#windowOf(key, timeWindow);
    const taken = window.current + units <= max;
    if (taken) window.current += units;
    return { taken, current: window.current, ttl: window.startedAt + timeWindow - Date.now() };
  }

  /** One budget per key for every route (shared-rate-counts.ts says why). */
  child(): FastifyRateLimitStore {
    throw new Error('the API rate limit is one budget per key for every route: use app.rateLimit() without options');
  }

  /** The key's current window, a new one when it has none or its last has ended; now the most recently seen. */
  #windowOf(key: string, timeWindow: number) {
    const now = Date.now();
    let window = this.#windows.get(key);
    if (window) this.#windows.delete(key);
    if (!window || window.startedAt + timeWindow <= now) window = { current: 0, startedAt: now };
    this.#windows.set(key, window);
    if (this.#windows.size > this.#trackedClients) {
      const oldest = this.#windows.keys().next().value;
      if (oldest !== undefined) this.#windows.delete(oldest);
    }
    return window;
  }
}
