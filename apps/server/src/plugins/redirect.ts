import { agentClass, referrerHost, type Services } from '@shortlinks/api';
import { LIMITS, SLUG_PATTERN } from '@shortlinks/contract';
import type { FastifyInstance, FastifyReply, onRequestAsyncHookHandler } from 'fastify';
import { GONE_PAGE, HOME_PAGE, NOT_FOUND_PAGE } from './redirect-pages.ts';

/**
 * GET/HEAD `/{slug}`: the short links themselves. Static routes (`/api/…`, `/trpc/…`, `/docs`,
 * `/healthz`, …) win over this parametric one, and their names are reserved slugs, so a link
 * can never shadow them. Nothing here writes to the database: clicks are buffered.
 */
export async function redirectPlugin(
  app: FastifyInstance,
  { services, rateLimit }: { services: Services; rateLimit?: onRequestAsyncHookHandler },
) {
  const { redirects, clicks } = services;
  // Per visitor IP (docs/security.md), before any lookup.
  if (rateLimit) app.addHook('onRequest', rateLimit);

  const page = (reply: FastifyReply, status: number, html: string) =>
    reply.code(status).header('cache-control', 'no-store').header('x-robots-tag', 'noindex').type('text/html; charset=utf-8').send(html);

  app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(HOME_PAGE));
  app.get('/favicon.ico', async (_request, reply) => reply.code(204).send());
  app.get('/robots.txt', async (_request, reply) => reply.type('text/plain').send('User-agent: *\nAllow: /\n'));

  app.get<{ Params: { slug: string } }>('/:slug', async (request, reply) => {
    const { slug } = request.params;
    if (slug.length > LIMITS.slugChars || !SLUG_PATTERN.test(slug)) return page(reply, 404, NOT_FOUND_PAGE);
    const outcome = await redirects.resolve(slug, Date.now());
    if (outcome.kind === 'not_found') return page(reply, 404, NOT_FOUND_PAGE);
    if (outcome.kind === 'gone') return page(reply, 410, GONE_PAGE);

    // HEAD requests and bots do not count as clicks (docs/redirects.md).
    if (request.method === 'GET') {
      const agent = agentClass(request.headers['user-agent']);
      if (agent !== 'bot') {
        clicks.record({ linkId: outcome.linkId, at: Date.now(), referrerHost: referrerHost(request.headers.referer), agentClass: agent });
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
