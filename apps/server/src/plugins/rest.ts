import { appRouter, successStatus } from '@shortlinks/api';
import { AppError, toAppError } from '@shortlinks/api/errors';
import type { Services } from '@shortlinks/api/services';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { type CreateOpenApiFastifyPluginOptions, fastifyTRPCOpenApiPlugin } from 'trpc-to-openapi';
import { largeBodies } from '../body-limits.ts';
import { nestsTooDeep, tooDeep } from '../json-depth.ts';
import { fromFastifyError } from './error-body.ts';
import { registerStreamedRoutes } from './rest-streams.ts';

export const REST_PREFIX = '/api/v1';

declare module 'fastify' {
  interface FastifyRequest {
    /** The error a REST procedure failed with, which its answer's body states. */
    failure: AppError | null;
  }
}

/**
 * REST at /api/v1 through trpc-to-openapi. The rate limit and the 401 of a request without a valid
 * key come first (the caller was found by the authentication plugin), and every error answers
 * with the spec's `{ code, message, field }`.
 */
export async function restPlugin(app: FastifyInstance, { services }: { services: Services }) {
  app.addHook('onRequest', app.rateLimit());
  app.addHook('onRequest', async (request, reply) => {
    if (!request.caller) return reply.code(401).header('www-authenticate', 'Bearer').send(new AppError('UNAUTHORIZED').toBody());
  });

  // Many HTTP clients send `Content-Type: application/json` on every request, DELETE included, with
  // no body. An empty body is fine where none is expected (GET, DELETE) and invalid JSON elsewhere.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  // Only JSON is parsed: a body of any other type is 415 UNSUPPORTED_MEDIA_TYPE (docs/api-decisions.md).
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && (request.method === 'DELETE' || request.method === 'GET')) return done(null, undefined);
    const text = body.toString();
    if (nestsTooDeep(text)) return done(tooDeep('body'));
    return parseJson(request, text, done);
  });
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && (request.method === 'DELETE' || request.method === 'GET')) return done(null, undefined);
    return done(new AppError('UNSUPPORTED_MEDIA_TYPE'));
  });

  // A JSON body that is not an object (`null`, `[]`, `"x"`) is valid JSON but no request.
  app.addHook('preHandler', async (request, reply) => {
    if (request.body === undefined || (typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body))) return;
    return reply.code(422).send(new AppError('VALIDATION_ERROR', 'The body must be a JSON object', 'body').toBody());
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const failure = fromFastifyError(error);
    if (failure.status >= 500) request.log.error({ err: error }, 'request failed');
    return reply.code(failure.status).type('application/json').send(failure.toBody());
  });

  // trpc-to-openapi answers an error with a body of its own making: the body is the error the
  // procedure failed with, which onError kept on the request.
  app.decorateRequest('failure', null);
  app.addHook('onSend', async (request, _reply, payload) => (request.failure ? JSON.stringify(request.failure.toBody()) : payload));

  // Streamed files (GET /links/export), which trpc-to-openapi cannot answer, through their procedures.
  registerStreamedRoutes(app, services, REST_PREFIX);

  const options: CreateOpenApiFastifyPluginOptions<typeof appRouter> = {
    basePath: REST_PREFIX,
    router: appRouter,
    // The Fastify adapter hands over the Fastify request, whose caller the authentication plugin found.
    createContext: ({ req }) => ({ services, transport: 'rest' as const, caller: (req as unknown as FastifyRequest).caller }),
    responseMeta: ({ paths, data, errors }) => {
      if (errors.length > 0) return { status: toAppError(errors[0]).status };
      return { status: successStatus(paths?.[0] ?? '', data[0]) };
    },
    onError: ({ error, req, input }) => {
      const failure = toAppError(error, input);
      (req as unknown as FastifyRequest).failure = failure;
      // Expected refusals (a reputation service down, fail-closed) are logged where they happen.
      if (failure.code === 'INTERNAL_ERROR') app.log.error({ err: error }, 'procedure failed');
    },
  };
  await app.register(fastifyTRPCOpenApiPlugin, options);

  // trpc-to-openapi serves every procedure from one `/api/v1/*` route, whose body limit is the
  // usual one. Each procedure taking a larger body gets a route of its own (static, so it wins over
  // the wildcard) with its limit: the same adapter again, in a scope whose onRoute hook narrows its
  // route to that method and path. Everything else of this scope (authentication, parsers, error
  // bodies) applies to it alike.
  for (const { meta, bodyLimit } of largeBodies()) {
    await app.register(async (scope) => {
      scope.addHook('onRoute', (route) => {
        route.method = meta.openapi.method;
        route.url = `${REST_PREFIX}${meta.openapi.path}`;
        route.bodyLimit = bodyLimit;
      });
      await scope.register(fastifyTRPCOpenApiPlugin, options);
    });
  }
}
