import { AppError } from '@shortlinks/api/errors';
import type { Services } from '@shortlinks/api/services';
import type { FastifyError, FastifyInstance } from 'fastify';
import { nestsTooDeep, tooDeep } from '../json-depth.ts';
import { fromFastifyError } from './error-body.ts';
import { restFileRoutes } from './rest-files.ts';
import { answerRestFailure, registerProcedureRoutes } from './rest-routes.ts';

export const REST_PREFIX = '/api/v1';

/**
 * REST at /api/v1: a route per procedure (rest-routes.ts). The rate limit and the 401 of a request
 * without a valid key come first (the caller was found by the authentication plugin), and every
 * error answers with the spec's `{ code, message, field }`.
 */
export async function restPlugin(app: FastifyInstance, { services }: { services: Services }) {
  app.addHook('onRequest', app.rateLimit());
  app.addHook('onRequest', async (request, reply) => {
    if (!request.caller) return reply.code(401).header('www-authenticate', 'Bearer').send(new AppError('UNAUTHORIZED').toBody());
  });

  // Many HTTP clients send `Content-Type: application/json` on every request, DELETE included, with
  // no body. An empty body is fine where none is expected (GET, DELETE) and invalid JSON elsewhere.
  // `__proto__` and `constructor` are kept as the plain keys JSON.parse makes them (as tRPC's own
  // parsing does), so that the input schema refuses them by name (`Unknown field "__proto__"`)
  // instead of a generic 400. Inputs reach procedures only through strict Zod schemas, which
  // build new objects of known keys: no body's key is ever assigned onto an object.
  const parseJson = app.getDefaultJsonParser('ignore', 'ignore');
  // Only JSON is parsed: a body of any other type is 415 UNSUPPORTED_MEDIA_TYPE (docs/api-decisions.md).
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && (request.method === 'DELETE' || request.method === 'GET')) return done(null, undefined);
    const text = body.toString();
    const { jsonDepth } = request.routeOptions.config;
    if (nestsTooDeep(text, jsonDepth)) return done(tooDeep('body', jsonDepth));
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
    // An outage of the database is no bug of ours, and is logged once by what noticed it, not per request.
    if (failure.code === 'INTERNAL_ERROR') request.log.error({ err: error }, 'request failed');
    return reply.code(failure.status).headers(failure.headers).type('application/json').send(failure.toBody());
  });

  const answerFailure = answerRestFailure((error) => app.log.error({ err: error }, 'procedure failed'));
  registerProcedureRoutes(app, services, REST_PREFIX, answerFailure);
  // A file as the body (POST /links/import): parsed its own way, in a scope of its own.
  await app.register(restFileRoutes, { services, restPrefix: REST_PREFIX, answerFailure });
}
