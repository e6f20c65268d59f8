import { LRUCache } from 'lru-cache';
import { ReputationUnavailable, type ReputationVerdict, type UrlReputation } from './reputation-chain.ts';

/** What a remote service answered, and for how long the answer may be reused. */
export interface RemoteAnswer {
  verdict: ReputationVerdict;
  /** How long the answer may be cached; undefined means "use the configured time for clean answers". */
  cacheForMs?: number | undefined;
}

/** One remote reputation API (Safe Browsing, Web Risk): asks about one URL, or throws when it cannot. */
export interface RemoteLookup {
  readonly name: string;
  lookup(url: string, signal: AbortSignal): Promise<RemoteAnswer>;
}

/** What to do when the service cannot answer in time: let the link through (and warn), or refuse it. */
export type FailurePolicy = 'allow' | 'fail-closed';

export interface RemoteReputationOptions {
  /** Longest wait for an answer; a slow service counts as down. */
  timeoutMs: number;
  /** How long a clean answer is reused (the APIs give no time for those). */
  cleanCacheMs: number;
  /** Longest time any answer is reused, whatever the service says. */
  maxCacheMs?: number;
  policy: FailurePolicy;
  /** URLs remembered at most. */
  cacheEntries?: number;
  /** Its label in metrics (`safe-browsing`, `web-risk`); the lookup's name by default. */
  provider?: string;
  warn: (message: string) => void;
}

/**
 * A remote reputation service with what every one needs around it: a short timeout, a cache
 * (honouring the service's own cache time), one request for concurrent checks of one URL, and the
 * operator's failure policy.
 */
export class RemoteReputation implements UrlReputation {
  readonly provider: string;
  readonly #lookup: RemoteLookup;
  readonly #options: RemoteReputationOptions;
  readonly #cache: LRUCache<string, ReputationVerdict>;
  readonly #inFlight = new Map<string, Promise<ReputationVerdict>>();

  constructor(lookup: RemoteLookup, options: RemoteReputationOptions) {
    this.#lookup = lookup;
    this.#options = options;
    this.provider = options.provider ?? lookup.name;
    this.#cache = new LRUCache({ max: options.cacheEntries ?? 10_000 });
  }

  async check(url: string): Promise<ReputationVerdict> {
    const cached = this.#cache.get(url);
    if (cached) return cached;
    let pending = this.#inFlight.get(url);
    if (!pending) {
      pending = this.#ask(url).finally(() => this.#inFlight.delete(url));
      this.#inFlight.set(url, pending);
    }
    return pending;
  }

  async #ask(url: string): Promise<ReputationVerdict> {
    let answer: RemoteAnswer;
    try {
      answer = await this.#lookup.lookup(url, AbortSignal.timeout(this.#options.timeoutMs));
    } catch (error) {
      const why =
        error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${this.#options.timeoutMs} ms` : describe(error);
      if (this.#options.policy === 'fail-closed') {
        this.#options.warn(`${this.#lookup.name} is unavailable (${why}); the destination was refused (failure policy "fail-closed")`);
        throw new ReputationUnavailable(`${this.#lookup.name} is unavailable (${why})`);
      }
      this.#options.warn(`${this.#lookup.name} is unavailable (${why}); the destination was allowed unchecked (failure policy "allow")`);
      return { flagged: false, unchecked: true };
    }
    const ttl = Math.min(answer.cacheForMs ?? this.#options.cleanCacheMs, this.#options.maxCacheMs ?? 24 * 3_600_000);
    // Failures are never cached: the next request asks again.
    if (ttl > 0) this.#cache.set(url, answer.verdict, { ttl: Math.ceil(ttl) });
    return answer.verdict;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Answers that are not what the API documents count as "unavailable", not as "clean". */
export class UnexpectedAnswer extends Error {}

/** A JSON object from a response, or an UnexpectedAnswer. */
export async function jsonObject(response: Response, service: string): Promise<Record<string, unknown>> {
  if (!response.ok) throw new UnexpectedAnswer(`${service} answered HTTP ${response.status}`);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new UnexpectedAnswer(`${service} answered with invalid JSON`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new UnexpectedAnswer(`${service} answered with no JSON object`);
  return body as Record<string, unknown>;
}
