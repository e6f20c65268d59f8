import type { Visits } from '@shortlinks/api/redirects';
import type { FastifyInstance } from 'fastify';

/**
 * `GET /.well-known/shortlinks/tls-ask?domain=NAME`: whether a TLS proxy may get a certificate for
 * NAME on demand (Caddy's `on_demand_tls { ask … }`, docs/operations.md): 200 for a verified,
 * serving domain, 404 for anything else. From memory (the domain directory), never the database,
 * so a flood of handshakes for made-up names costs nothing.
 */
export async function tlsAskPlugin(app: FastifyInstance, { visits }: { visits: Visits }) {
  app.get<{ Querystring: { domain?: string | string[] } }>('/.well-known/shortlinks/tls-ask', async (request, reply) => {
    const { domain } = request.query;
    const name = typeof domain === 'string' ? domain.trim().toLowerCase().replace(/\.$/, '') : '';
    const served = name !== '' && name.length <= 253 && visits.servedDomain(name) !== undefined;
    return reply
      .code(served ? 200 : 404)
      .header('cache-control', 'no-store')
      .type('text/plain; charset=utf-8')
      .send(served ? 'ok\n' : 'not a domain served here\n');
  });
}
