import { type Context, callProcedure, everyProcedureMeta, procedureType, successStatus, trpcErrorShape } from '@shortlinks/api';
import { toAppError } from '@shortlinks/api/errors';
import type { Services } from '@shortlinks/api/services';
import { getTRPCErrorFromUnknown, type TRPCError } from '@trpc/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { largeBodies } from '../body-limits.ts';

export interface SingleCallOptions {
  services: Services;
  /** A call's context: its caller, and the HTTP exchange the people procedures use. */
  contextOf: (request: FastifyRequest, reply: FastifyReply) => Context;
  prefix: string;
  /** tRPC's own handling of a request (fastifyRequestHandler with the plugin's options). */
  delegate: (request: FastifyRequest, reply: FastifyReply, path: string) => unknown;
  onError: (error: TRPCError) => void;
}

/**
 * The single tRPC calls (what the SDK sends: one procedure a request, never batched), on a route
 * per procedure that calls it in-process and answers tRPC's JSON envelope: `{ result: { data } }`,
 * or `{ error }` shaped by the router's errorFormatter, with the status its REST twin answers (200
 * for 204). tRPC's own adapter builds a fetch Request, an AbortSignal and a Headers object for
 * every call, which cost more than the database read behind a GET (docs/performance.md,
 * bench:api). Anything else, which tRPC alone knows how to answer (a batch, a streamed answer, a
 * body or an `input` that is not JSON, another content type), is handed to tRPC's adapter as is.
 */
export function registerSingleCalls(scope: FastifyInstance, { services, contextOf, prefix, delegate, onError }: SingleCallOptions): void {
  const large = new Map(largeBodies(services.sentFileImport.maxBytes).map((body) => [body.procedure, body]));
  for (const [path, meta] of everyProcedureMeta()) {
    const type = procedureType(path);
    // A streamed answer is tRPC's own (httpBatchStreamLink).
    if (meta.streamed || (type !== 'query' && type !== 'mutation')) continue;
    const largeBody = large.get(path);
    scope.route({
      method: type === 'query' ? 'GET' : 'POST',
      url: `${prefix}/${path}`,
      ...(largeBody ? { bodyLimit: largeBody.bodyLimit, config: { jsonDepth: largeBody.jsonDepth } } : {}),
      handler: async (request, reply) => {
        const sent = singleCallInput(request, type);
        if (!sent) return delegate(request, reply, path);
        const { input } = sent;
        const ctx = contextOf(request, reply);
        reply.header('vary', 'trpc-accept, accept').type('application/json');
        try {
          const data = await callProcedure(path, ctx, input);
          const status = successStatus(path, data);
          // A tRPC answer always carries its JSON envelope, which a 204 cannot.
          return reply.code(status === 204 ? 200 : status).send(JSON.stringify({ result: { data } }));
        } catch (cause) {
          const error = getTRPCErrorFromUnknown(cause);
          onError(error);
          const shape = trpcErrorShape(error, { ctx, input, path, type });
          const failure = toAppError(error);
          return reply
            .code(failure.status)
            .headers(failure.headers)
            .send(JSON.stringify({ error: shape }));
        }
      },
    });
  }
}

/**
 * The input of a single call sent as JSON (`?input=` of a GET, the body of a POST; none is
 * undefined), or undefined when the request is anything else for tRPC's adapter to answer.
 */
function singleCallInput(request: FastifyRequest, type: 'query' | 'mutation'): { input: unknown } | undefined {
  const query = request.query as Record<string, unknown>;
  if (query.batch !== undefined || request.headers['trpc-accept'] !== undefined || request.headers.accept?.includes('jsonl')) return;
  const contentType = request.headers['content-type']?.split(';', 1)[0]?.trim().toLowerCase();
  if (contentType !== 'application/json' && !(type === 'query' && contentType === undefined)) return;
  const text = type === 'query' ? query.input : request.body;
  if (text === undefined || text === '') return { input: undefined };
  if (typeof text !== 'string') return;
  try {
    return { input: JSON.parse(text) };
  } catch {
    return;
  }
}
