import { countryCode, describeAgent, type RedirectOutcome, referrerHost, type VisitLimiter } from '@shortlinks/api/redirects';
import type { Services } from '@shortlinks/api/services';
import { LIMITS, SLUG_PATTERN } from '@shortlinks/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientAddress } from '../rate-limits.ts';
import { GONE_PAGE, HOME_PAGE, NOT_FOUND_PAGE, sendPage } from './redirect-pages.ts';

export interface RedirectPluginOptions {
  services: Services;
  /** Lower-cased header a trusted proxy sets to the visitor's country (statistics only). */
  countryHeader?: string | undefined;
  /** Visits per visitor IP (docs/security.md), counted before any lookup. */
  visits: VisitLimiter;
}

type SlugRequest = FastifyRequest<{ Params: { slug: string } }>;

/**
 * GET/HEAD `/{slug}`: the short links themselves. Static routes (`/api/…`, `/trpc/…`, `/docs`,
 * `/healthz`, …) win over this parametric one, and their names are reserved slugs, so a link
 * can never shadow them. Nothing here writes to the database: clicks are buffered.
 *
 * The hottest path of the server, so it runs no hook and, for a cached slug, stays synchronous:
 * no promise between the request and its answer (docs/performance.md).
 */
export async function redirectPlugin(app: FastifyInstance, { services, countryHeader, visits }: RedirectPluginOptions) {
  const { redirects, clicks } = services;

  app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(HOME_PAGE));
  app.get('/favicon.ico', async (_request, reply) => reply.code(204).send());
  app.get('/robots.txt', async (_request, reply) => reply.type('text/plain').send('User-agent: *\nAllow: /\n'));

  /** Answers a visit: the redirect (counted as a click) or the page of a link that does not redirect. */
  function answer(request: SlugRequest, reply: FastifyReply, outcome: RedirectOutcome, now: number): FastifyReply {
    if (outcome.kind === 'not_found') return sendPage(reply, 404, NOT_FOUND_PAGE);
    if (outcome.kind === 'gone') return sendPage(reply, 410, GONE_PAGE);

    // HEAD requests and bots do not count as clicks (docs/redirects.md).
    if (request.method === 'GET') {
      const userAgent = request.headers['user-agent'];
      const agent = describeAgent(userAgent);
      if (agent.device !== 'bot') {
        clicks.record({
          linkId: outcome.linkId,
          at: now,
          referrerHost: referrerHost(request.headers.referer),
          agent,
          country: countryHeader ? countryCode(request.headers[countryHeader]) : null,
          // Only hashed with the day's salt (docs/statistics.md); never stored.
          clientIp: request.ip,
          userAgent,
        });
      }
    }
    // no-store: a cached redirect would skip us, and the click would go uncounted.
    return reply
      .code(302)
      .header('location', outcome.location)
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex')
      .send();
  }

  app.get<{ Params: { slug: string } }>('/:slug', (request, reply) => {
    const now = Date.now();
    const retryAfter = visits.countVisit(clientAddress(request), now);
    if (retryAfter !== undefined) {
      refuseVisit(reply, visits.max, retryAfter);
      return;
    }
    const { slug } = request.params;
    if (slug.length > LIMITS.slugChars || !SLUG_PATTERN.test(slug)) {
      sendPage(reply, 404, NOT_FOUND_PAGE);
      return;
    }
    const cached = redirects.resolveCached(slug, now);
    if (cached) {
      answer(request, reply, cached, now);
      return;
    }
    return redirects.resolve(slug, now).then((outcome) => answer(request, reply, outcome, now));
  });
}

/** 429 with the API's error body; the RateLimit headers only on a refusal (docs/security.md). */
function refuseVisit(reply: FastifyReply, max: number, retryAfterSeconds: number): void {
  reply
    .code(429)
    .header('retry-after', retryAfterSeconds)
    .header('ratelimit-limit', max)
    .header('ratelimit-remaining', 0)
    .header('ratelimit-reset', retryAfterSeconds)
    .send({ code: 'RATE_LIMITED', message: `Too many requests from this address; retry in ${retryAfterSeconds} seconds` });
}
