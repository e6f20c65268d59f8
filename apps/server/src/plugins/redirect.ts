import { countryCode, describeAgent, referrerHost, type Services } from '@shortlinks/api';
import { LIMITS, SLUG_PATTERN } from '@shortlinks/contract';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { GONE_PAGE, HOME_PAGE, NOT_FOUND_PAGE, sendPage } from './redirect-pages.ts';

export interface RedirectPluginOptions {
  services: Services;
  /** Lower-cased header a trusted proxy sets to the visitor's country (statistics only). */
  countryHeader?: string | undefined;
  /** Per visitor IP (docs/security.md), run before any lookup. */
  rateLimit?: onRequestAsyncHookHandler | undefined;
}

/**
 * GET/HEAD `/{slug}`: the short links themselves. Static routes (`/api/…`, `/trpc/…`, `/docs`,
 * `/healthz`, …) win over this parametric one, and their names are reserved slugs, so a link
 * can never shadow them. Nothing here writes to the database: clicks are buffered.
 */
export async function redirectPlugin(app: FastifyInstance, { services, countryHeader, rateLimit }: RedirectPluginOptions) {
  const { redirects, clicks } = services;
  // Per visitor IP (docs/security.md), before any lookup.
  if (rateLimit) app.addHook('onRequest', rateLimit);

  app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(HOME_PAGE));
  app.get('/favicon.ico', async (_request, reply) => reply.code(204).send());
  app.get('/robots.txt', async (_request, reply) => reply.type('text/plain').send('User-agent: *\nAllow: /\n'));

  app.get<{ Params: { slug: string } }>('/:slug', async (request, reply) => {
    const { slug } = request.params;
    if (slug.length > LIMITS.slugChars || !SLUG_PATTERN.test(slug)) return sendPage(reply, 404, NOT_FOUND_PAGE);
    const outcome = await redirects.resolve(slug, Date.now());
    if (outcome.kind === 'not_found') return sendPage(reply, 404, NOT_FOUND_PAGE);
    if (outcome.kind === 'gone') return sendPage(reply, 410, GONE_PAGE);

    // HEAD requests and bots do not count as clicks (docs/redirects.md).
    if (request.method === 'GET') {
      const userAgent = request.headers['user-agent'];
      const agent = describeAgent(userAgent);
      if (agent.device !== 'bot') {
        clicks.record({
          linkId: outcome.linkId,
          at: Date.now(),
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
  });
}
