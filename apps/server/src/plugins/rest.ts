import { AppError, appRouter, type Services, successStatus, toAppError } from '@shortlinks/api';
import type { FastifyError, FastifyInstance } from 'fastify';
import { type CreateOpenApiFastifyPluginOptions, fastifyTRPCOpenApiPlugin } from 'trpc-to-openapi';
import { nestsTooDeep, tooDeep } from '../json-depth.ts';
import { apiRateLimit } from '../rate-limits.ts';
import { fromFastifyError } from './error-body.ts';

export const REST_PREFIX = '/api/v1';

const UNAUTHORIZED = new AppError('UNAUTHORIZED', 'Send a valid API key as "Authorization: Bearer <key>"');
const UNSUPPORTED_MEDIA_TYPE = new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with Content-Type: application/json');

interface TrpcErrorPayload {
  message?: string;
  data?: { appCode?: string; appMessage?: string; field?: string | null };
}

/**
 * REST at /api/v1 through trpc-to-openapi. Authentication and the rate limit run first (so a
 * caller without a key gets 401 before anything else), and every error body is rewritten to the
 * spec's `{ code, message, field }`.
 */
export async function restPlugin(app: FastifyInstance, { services }: { services: Services }) {
  for (const hook of apiRateLimit(app, services)) app.addHook('onRequest', hook);
  app.addHook('onRequest', async (request, reply) => {
    if (request.url === `${REST_PREFIX}/openapi.json`) return;
    if (!request.caller) return reply.code(401).header('www-authenticate', 'Bearer').send(UNAUTHORIZED.toBody());
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
    return done(UNSUPPORTED_MEDIA_TYPE);
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

  // trpc-to-openapi writes its own error body; the spec's body is rebuilt from the data our
  // error formatter put there.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== 'string' || !payload.includes('"appCode"')) return payload;
    const parsed = JSON.parse(payload) as TrpcErrorPayload;
    const code = parsed.data?.appCode;
    if (!code) return payload;
    const message = parsed.data?.appMessage ?? parsed.message;
    const field = parsed.data?.field;
    // An unknown field may be named "" (`?=1`): still a field, so still reported.
    return JSON.stringify(typeof field === 'string' ? { code, message, field } : { code, message });
  });

  const options: CreateOpenApiFastifyPluginOptions<typeof appRouter> = {
    basePath: REST_PREFIX,
    router: appRouter,
    createContext: ({ req }) => ({
      services,
      transport: 'rest' as const,
      authorization: req.headers.authorization,
      // The Fastify adapter hands over the Fastify request, which the onRequest hook authenticated.
      accountId: (req as { caller?: { accountId: string } }).caller?.accountId,
    }),
    responseMeta: ({ paths, data, errors }) => {
      if (errors.length > 0) return { status: toAppError(errors[0]).status };
      return { status: successStatus(paths?.[0] ?? '', data[0]) };
    },
    onError: ({ error }) => {
      // Expected refusals (a reputation service down, fail-closed) are logged where they happen.
      if (toAppError(error).code === 'INTERNAL_ERROR') app.log.error({ err: error }, 'procedure failed');
    },
  };
  await app.register(fastifyTRPCOpenApiPlugin, options);
}
