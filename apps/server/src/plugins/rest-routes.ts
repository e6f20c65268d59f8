import { callProcedure, everyProcedureMeta, type Meta, successStatus } from '@shortlinks/api';
import { toAppError } from '@shortlinks/api/errors';
import type { Services } from '@shortlinks/api/services';
import { TRPCError } from '@trpc/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { largeBodies } from '../body-limits.ts';
import { admitCalls } from '../call-admission.ts';
import { type ImageResult, sendImage } from './rest-images.ts';
import { type RestInput, restInputOf } from './rest-input.ts';
import { sendStreamed } from './rest-streams.ts';

/** What a route does with a procedure's failure: answer it (REST's `{ code, message, field }`) and log a bug. */
export type FailureAnswer = (request: FastifyRequest, reply: FastifyReply, error: unknown, input: unknown) => FastifyReply;

/**
 * REST at `prefix`: one Fastify route per procedure, at the method and path of its OpenAPI meta,
 * calling the procedure in-process (callProcedure), so its input and output schemas, middlewares
 * and errors are the procedure's own. trpc-to-openapi writes the OpenAPI document from the same meta;
 * its request adapter is not used, because it builds a fetch Request and an AbortSignal for every
 * call, which cost more than the database read behind a GET (docs/performance.md, bench:api).
 * Input is read as trpc-to-openapi reads it (rest-input.ts), so both agree on what a request means.
 */
export function registerProcedureRoutes(app: FastifyInstance, services: Services, prefix: string, answerFailure: FailureAnswer) {
  const large = new Map(largeBodies(services.sentFileImport.maxBytes).map((body) => [body.procedure, body]));
  for (const [path, meta] of everyProcedureMeta()) {
    if (meta.openapi.enabled === false && !meta.streamed && !meta.image) continue;
    const readInput = restInputOf(path, meta);
    const largeBody = large.get(path);
    app.route({
      method: meta.openapi.method,
      url: `${prefix}${fastifyPath(meta)}`,
      ...(largeBody ? { bodyLimit: largeBody.bodyLimit, config: { jsonDepth: largeBody.jsonDepth } } : {}),
      handler: async (request, reply) => {
        let input: RestInput;
        try {
          input = readInput(request);
          await admitCalls(request, reply, [{ path, input }]);
        } catch (error) {
          return answerFailure(request, reply, error, undefined);
        }
        let result: unknown;
        try {
          result = await callProcedure(path, { services, transport: 'rest', caller: request.caller, ip: request.ip }, input);
        } catch (error) {
          return answerFailure(request, reply, error, input);
        }
        if (meta.streamed) return sendStreamed(reply, result as AsyncIterable<string>, input);
        if (meta.image) return sendImage(reply, result as ImageResult);
        const status = successStatus(path, result);
        if (status === 204) return reply.code(204).send();
        return reply.code(status).type('application/json').send(JSON.stringify(result));
      },
    });
  }

  // A path or method no procedure serves, once the caller is known: 404 in the API's error shape.
  app.route({
    method: ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'],
    url: `${prefix}/*`,
    handler: async (request, reply) => answerFailure(request, reply, new TRPCError({ code: 'NOT_FOUND', message: 'Not found' }), undefined),
  });
}

/** `/links/{id}` as Fastify writes it: `/links/:id`. */
function fastifyPath(meta: Meta): string {
  return meta.openapi.path.replace(/\{(\w+)\}/g, ':$1');
}

/** The answer to a request whose procedure failed: its error's status and the spec's body. */
export function answerRestFailure(log: (error: unknown) => void): FailureAnswer {
  return (_request, reply, error, input) => {
    const failure = toAppError(error, input);
    // Expected refusals (a reputation service down, fail-closed) are logged where they happen.
    if (failure.code === 'INTERNAL_ERROR') log(error);
    return reply.code(failure.status).headers(failure.headers).type('application/json').send(failure.toBody());
  };
}
