import { Readable } from 'node:stream';
import { type EXPORT_FORMATS, EXPORT_MEDIA_TYPES } from '@shortlinks/contract';
import type { FastifyReply } from 'fastify';

/**
 * The answer of a procedure whose result is a streamed file (`streamed` in its meta: the export),
 * as the file itself. Fastify pipes the chunks to the socket, pulling the next page only when the
 * socket has taken the last (backpressure).
 */
export function sendStreamed(reply: FastifyReply, chunks: AsyncIterable<string>, input: unknown): FastifyReply {
  const format = (input as { format?: (typeof EXPORT_FORMATS)[number] } | undefined)?.format ?? 'csv';
  return reply
    .type(EXPORT_MEDIA_TYPES[format] ?? EXPORT_MEDIA_TYPES.csv)
    .header('content-disposition', `attachment; filename="links.${format}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(chunks));
}
