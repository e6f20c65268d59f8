import type { Caller, Services } from '@shortlinks/api/services';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the request's API key belongs to; null without a key, or with an unknown or revoked one. */
    caller: Caller | null;
  }
}

/** The key of `Authorization: Bearer <key>` (scheme in any case), or undefined for any other header. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1];
}

/**
 * The one place a request's caller is found: its API key is looked up once, before anything else
 * of the API runs, and `request.caller` says who it is. The rate limit counts against it, REST
 * answers 401 without it, and tRPC's authedProcedure only checks it (docs/architecture.md).
 */
export const authenticationPlugin = fastifyPlugin(
  async (app: FastifyInstance, { services }: { services: Services }) => {
    app.decorateRequest('caller', null);
    app.addHook('onRequest', async (request) => {
      request.caller = (await services.apiKeys.authenticate(bearerToken(request.headers.authorization))) ?? null;
    });
  },
  { name: 'authentication', fastify: '5.x' },
);
