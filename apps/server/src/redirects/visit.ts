import type { IncomingHttpHeaders } from 'node:http';
import { type ClickRecorder, countryCode, describeAgent, referrerHost, type VisitLimiter } from '@shortlinks/api/redirects';
import { rateLimited } from '../rate-limits.ts';

/**
 * What a short-link visit is answered with, shared by the two places that answer one: the fast
 * path for cached links (fast-redirects.ts) and the Fastify route for everything else
 * (plugins/redirect.ts), so both count, record and answer alike.
 */

/** The redirect's headers. no-store: a cached redirect would skip us, and the click would go uncounted. */
export function redirectHeaders(location: string): Record<string, string> {
  return { location, 'cache-control': 'no-store', 'x-robots-tag': 'noindex' };
}

/** Whether a visitor is a bot, as the click count decides it (for the metrics' split of visits). */
export function isBot(headers: IncomingHttpHeaders): boolean {
  return describeAgent(headers['user-agent']).device === 'bot';
}

/**
 * Records the visit as a click, unless it is a HEAD request or a bot's (docs/redirects.md). The
 * client address is only hashed with the day's salt (docs/statistics.md), never stored. Says
 * whether the visitor is a bot, which the visit's counts need (redirects/visit-counts.ts).
 */
export function recordVisit(
  clicks: ClickRecorder,
  countryHeader: string | undefined,
  visit: { method: string | undefined; headers: IncomingHttpHeaders; ip: string },
  linkId: string,
  now: number,
): boolean {
  const userAgent = visit.headers['user-agent'];
  const agent = describeAgent(userAgent);
  if (agent.device === 'bot') return true;
  if (visit.method !== 'GET') return false;
  clicks.record({
    linkId,
    at: now,
    referrerHost: referrerHost(visit.headers.referer),
    agent,
    country: countryHeader ? countryCode(visit.headers[countryHeader]) : null,
    clientIp: visit.ip,
    userAgent,
  });
  return false;
}

/** The 429 of a visitor over the limit: the API's error body, the RateLimit headers only on a refusal (docs/security.md). */
export function visitRefusal(visits: VisitLimiter, retryAfterSeconds: number) {
  return {
    headers: {
      'retry-after': String(retryAfterSeconds),
      'ratelimit-limit': String(visits.max),
      'ratelimit-remaining': '0',
      'ratelimit-reset': String(retryAfterSeconds),
    },
    body: rateLimited(`${retryAfterSeconds} seconds`, 'from this address').toBody(),
  };
}
