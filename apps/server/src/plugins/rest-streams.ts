import { Readable } from 'node:stream';
import { createCaller, everyProcedureMeta } from '@shortlinks/api';
import { toAppError } from '@shortlinks/api/errors';
import type { Services } from '@shortlinks/api/services';
import { EXPORT_MEDIA_TYPES, type ExportFormat } from '@shortlinks/contract';
import type { FastifyInstance } from 'fastify';

/**
 * The REST routes of procedures whose result is a streamed file (`streamed` in their meta), which
 * trpc-to-openapi cannot answer. Each is registered in the REST scope, so it is authenticated and
 * rate limited like every API route, and it calls its procedure through a tRPC caller: input
 * validation, errors and the service are the procedure's own. Fastify pipes the chunks to the
 * socket, pulling the next page only when the socket has taken the last (backpressure).
 */
export function registerStreamedRoutes(app: FastifyInstance, services: Services, prefix: string): void {
  for (const [path, meta] of everyProcedureMeta()) {
    if (!meta.streamed) continue;
    app.route({
      method: meta.openapi.method,
      url: `${prefix}${meta.openapi.path}`,
      handler: async (request, reply) => {
        const caller = createCaller({ services, transport: 'rest', caller: request.caller });
        const input = request.query;
        let chunks: AsyncIterable<string>;
        try {
          chunks = await procedureAt(caller, path)(input);
        } catch (error) {
          throw toAppError(error, input);
        }
        const format = (input as { format?: ExportFormat }).format ?? 'csv';
        return reply
          .type(EXPORT_MEDIA_TYPES[format] ?? EXPORT_MEDIA_TYPES.csv)
          .header('content-disposition', `attachment; filename="links.${format}"`)
          .header('cache-control', 'no-store')
          .send(Readable.from(chunks));
      },
    });
  }
}

type Procedure = (input: unknown) => Promise<AsyncIterable<string>>;

/** The caller's procedure at `links.export`. */
function procedureAt(caller: object, path: string): Procedure {
  return path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as Procedure;
}
