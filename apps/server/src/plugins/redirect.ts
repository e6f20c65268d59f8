import { type HostDomain, type RedirectOutcome, redirectKey, type Visits } from '@shortlinks/api/redirects';
import { LIMITS, SLUG_PATTERN } from '@shortlinks/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { clientAddress } from '../rate-limits.ts';
import { redirectHeaders, visitRefusal } from '../redirects/visit.ts';
import type { VisitCounts } from '../redirects/visit-counts.ts';
import { GONE_PAGE, HOME_PAGE, NOT_FOUND_PAGE, sendPage, UNAVAILABLE_PAGE, UNAVAILABLE_RETRY_AFTER_SECONDS } from './redirect-pages.ts';
import { answerSmartVisit, passwordRoute } from './redirect-smart.ts';

export interface RedirectPluginOptions {
  /** Where a slug leads, the limit per visitor (counted before any lookup) and the click: the same `Visits` as the fast path's. */
  visits: Visits;
  /** Where the redirect cache's hits and misses are counted (the visits themselves are counted by the request log). */
  visitCounts: VisitCounts;
}

type SlugRequest = FastifyRequest<{ Params: { slug: string } }>;

/**
 * GET/HEAD `/{slug}`: the short links themselves. Static routes (`/api/…`, `/trpc/…`, `/docs`,
 * `/healthz`, …) win over this parametric one, and their names are reserved slugs, so a link
 * can never shadow them. Nothing here writes to the database: clicks are buffered.
 *
 * Cached links are answered before Fastify (redirects/fast-redirects.ts); this route answers the
 * rest: links not cached yet, unknown and expired ones, and refused visits of those. Its only hooks
 * are the root's: the closing of a connection whose body never came (connection-limits.ts) and the
 * echo of the client's X-Request-Id (build-server.ts), both synchronous; for a cached slug it stays
 * synchronous (docs/performance.md).
 */
export async function redirectPlugin(app: FastifyInstance, { visits, visitCounts }: RedirectPluginOptions) {
  // The home page on the server's own domain; on a branded one its root redirect, else 404 (docs/domains.md).
  app.get('/', async (request, reply) => {
    const domain = visits.hostDomain(request.headers.host);
    if (domain === null) return reply.type('text/html; charset=utf-8').send(HOME_PAGE);
    if (domain?.rootRedirectUrl) return reply.code(302).headers(redirectHeaders(domain.rootRedirectUrl)).send();
    return sendPage(reply, 404, NOT_FOUND_PAGE);
  });
  app.get('/favicon.ico', async (_request, reply) => reply.code(204).send());
  app.get('/robots.txt', async (_request, reply) => reply.type('text/plain').send('User-agent: *\nAllow: /\n'));

  /** Answers a visit: the redirect (counted as a click) or the page of a link that does not redirect. */
  function answer(
    request: SlugRequest,
    reply: FastifyReply,
    outcome: RedirectOutcome,
    now: number,
    domain: HostDomain,
  ): FastifyReply | Promise<FastifyReply> {
    if (outcome.kind === 'smart') return answerSmartVisit(visits, request, reply, outcome.target, now, domain ? domain.id : null);
    if (outcome.kind === 'not_found') {
      // A branded domain's not-found redirect: no link, so no click.
      if (domain?.notFoundUrl) return reply.code(302).headers(redirectHeaders(domain.notFoundUrl)).send();
      return sendPage(reply, 404, NOT_FOUND_PAGE);
    }
    if (outcome.kind === 'gone') return sendPage(reply, 410, GONE_PAGE);
    if (outcome.kind === 'unavailable') {
      return sendPage(reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS)), 503, UNAVAILABLE_PAGE);
    }

    visits.recordClick(outcome.linkId, now, request.method, request.headers, request.ip, request.url);
    return reply.code(302).headers(redirectHeaders(outcome.location)).send();
  }

  // In a scope of its own: its form body parser is for this route only.
  await app.register(passwordRoute, { visits });

  app.get<{ Params: { slug: string } }>('/:slug', { config: { visit: true } }, (request, reply) => {
    const now = Date.now();
    const retryAfter = visits.countVisit(clientAddress(request.ip), now);
    if (retryAfter !== undefined) {
      const refusal = visitRefusal(visits, retryAfter);
      reply.code(429).headers(refusal.headers).send(refusal.body);
      return;
    }
    const { slug } = request.params;
    // The Host picks the domain; a host that is neither the server's nor a verified domain's looks nothing up.
    const domain = visits.hostDomain(request.headers.host);
    if (domain === undefined) {
      sendPage(reply, 404, NOT_FOUND_PAGE);
      return;
    }
    if (slug.length > LIMITS.slugChars || !SLUG_PATTERN.test(slug)) {
      answer(request, reply, { kind: 'not_found' }, now, domain);
      return;
    }
    const key = domain === null ? slug : redirectKey(domain.id, slug);
    const cached = visits.resolveCached(key, now);
    if (cached) {
      visitCounts.cacheHits++;
      // A smart link's visit may wait (a cookie's key, a click limit): then the route does too.
      if (cached.kind === 'smart') return answer(request, reply, cached, now, domain);
      answer(request, reply, cached, now, domain);
      return;
    }
    visitCounts.cacheMisses++;
    return visits.resolve(key, now).then((outcome) => answer(request, reply, outcome, now, domain));
  });
}
