import type { Visits } from '@shortlinks/api/redirects';
import { rateLimited } from '../rate-limits.ts';

/**
 * What a short-link visit is answered with, shared by the two places that answer one: the fast
 * path for cached links (fast-redirects.ts) and the Fastify route for everything else
 * (plugins/redirect.ts), so both answer alike. What a visit does (where it leads, the limit, the
 * click) is the API package's `Visits`, which both call.
 */

/** The redirect's headers. no-store: a cached redirect would skip us, and the click would go uncounted. */
export function redirectHeaders(location: string): Record<string, string> {
  return { location, 'cache-control': 'no-store', 'x-robots-tag': 'noindex' };
}

/** The 429 of a visitor over the limit: the API's error body, the RateLimit headers only on a refusal (docs/security.md). */
export function visitRefusal(visits: Visits, retryAfterSeconds: number) {
  return {
    headers: {
      'retry-after': String(retryAfterSeconds),
      'ratelimit-limit': String(visits.limit),
      'ratelimit-remaining': '0',
      'ratelimit-reset': String(retryAfterSeconds),
    },
    body: rateLimited(`${retryAfterSeconds} seconds`, 'from this address').toBody(),
  };
}
