import { appRouter, procedureMeta, successStatus } from '@shortlinks/api';
import { toAppError, trpcErrorBody } from '@shortlinks/api/errors';
import type { Services, SignInAttempts } from '@shortlinks/api/services';
import { fastifyRequestHandler, fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { admitCalls } from '../call-admission.ts';
import { nestsTooDeep, tooDeep } from '../json-depth.ts';
import { type CookiePolicy, webExchange } from '../session-cookie.ts';
import { fromFastifyError } from './error-body.ts';
import { registerSingleCalls } from './trpc-calls.ts';
import { trpcRequestCalls } from './trpc-request-calls.ts';

export const TRPC_PREFIX = '/trpc';

/** The most calls one batched tRPC request may carry (docs/security.md); each counts against the rate limit. */
export const TRPC_MAX_BATCH = 10;

/**
 * Typed tRPC at /trpc, answering with the same HTTP statuses as REST (but 200 for 204). The
 * caller (found by the authentication plugin) is counted against its rate limit before the body is
 * read, as on REST, and once it is read every call of a batch is (call-admission.ts).
 */
export async function trpcPlugin(
  app: FastifyInstance,
  { services, cookies, signInAttempts }: { services: Services; cookies: CookiePolicy; signInAttempts: SignInAttempts },
) {
  // What every call's context holds: its caller, and for the people procedures the HTTP exchange (cookie, address).
  const contextOf = (request: FastifyRequest, reply: FastifyReply) => ({
    services,
    transport: 'trpc' as const,
    caller: request.caller,
    // The client's address as TRUST_PROXY reads it: the audit log keeps it with every change.
    ip: request.ip,
    web: webExchange(request, reply, cookies, signInAttempts),
  });
  app.addHook('onRequest', app.rateLimit());

  // Failures before a procedure runs (rate limit, body size, media type) answer in tRPC's error
  // envelope, with the app's code where the client looks for it.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const failure = fromFastifyError(error);
    // An outage of the database is no bug of ours, and is logged once by what noticed it, not per request.
    if (failure.code === 'INTERNAL_ERROR') request.log.error({ err: error }, 'request failed');
    return reply.code(failure.status).headers(failure.headers).type('application/json').send(trpcErrorBody(failure));
  });

  // The adapter hands tRPC the body (and a query's `input`) as text, which tRPC parses itself.
  app.addHook('preHandler', async (request) => {
    const { jsonDepth } = request.routeOptions.config;
    if (typeof request.body === 'string' && nestsTooDeep(request.body, jsonDepth)) throw tooDeep('body', jsonDepth);
    const { input } = request.query as { input?: unknown };
    for (const value of [input].flat()) if (typeof value === 'string' && nestsTooDeep(value)) throw tooDeep('input');
  });

  // Each call weighs what it would over REST, and an export takes a slot of its account's, before
  // tRPC runs any. A batch over the maximum is refused whole by tRPC, running none.
  app.addHook('preHandler', async (request, reply) => {
    const calls = trpcRequestCalls(request, TRPC_PREFIX, weighedByInput);
    if (calls.length <= TRPC_MAX_BATCH) await admitCalls(request, reply, calls);
  });

  const trpcOptions = {
    router: appRouter,
    // Every call of a batch counts against the rate limit; ten keep one request's work small.
    maxBatchSize: TRPC_MAX_BATCH,
    createContext: ({ req, res }: { req: FastifyRequest; res: FastifyReply }) => contextOf(req, res),
    responseMeta: ({ paths, data, errors }: { paths?: readonly string[]; data: readonly unknown[]; errors: readonly unknown[] }) => {
      // Batched calls keep tRPC's own status; a single call answers like its REST twin.
      if (paths?.length !== 1) return {};
      if (errors.length > 0) {
        const failure = toAppError(errors[0]);
        return { status: failure.status, headers: failure.headers };
      }
      const result = data[0] as { result?: { data?: unknown } } | undefined;
      const status = successStatus(paths[0] ?? '', result?.result?.data);
      // A tRPC response always carries its JSON envelope, which a 204 cannot: deletions answer 200.
      return { status: status === 204 ? 200 : status };
    },
    onError: ({ error }: { error: unknown }) => {
      // Expected refusals (a reputation service down, fail-closed) are logged where they happen.
      if (toAppError(error).code === 'INTERNAL_ERROR') app.log.error({ err: error }, 'procedure failed');
    },
  };
  await app.register(fastifyTRPCPlugin, { prefix: TRPC_PREFIX, trpcOptions });

  // A single call (what the SDK sends) runs on a route of its procedure's own, static so it wins
  // over `/trpc/:path`, with that procedure's body limit (a bulk call's is larger); a batch keeps
  // the usual limit and tRPC's adapter (trpc-calls.ts).
  await app.register(async (scope) => {
    // tRPC parses the body itself, as text (what fastifyTRPCPlugin sets up in its own scope).
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    scope.removeContentTypeParser('multipart/form-data');
    scope.addContentTypeParser('multipart/form-data', {}, (_request, body, done) => done(null, body));
    registerSingleCalls(scope, {
      services,
      contextOf,
      prefix: TRPC_PREFIX,
      delegate: (req, res, path) => fastifyRequestHandler({ ...trpcOptions, req, res, path }),
      onError: (error) => trpcOptions.onError({ error }),
    });
  });
}

/** Whether a call's weight depends on its input (a bulk call's items, an import's file): only then is its body parsed before tRPC does. */
const weighedByInput = (path: string) => {
  const meta = procedureMeta(path);
  return meta?.items !== undefined || meta?.file !== undefined;
};
