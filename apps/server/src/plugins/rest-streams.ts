import { Readable } from 'node:stream';
import { type EXPORT_FORMATS, EXPORT_MEDIA_TYPES } from '@shortlinks/contract';
import type { FastifyReply } from 'fastify';

/**
 * How much of a streamed file waits in the stream for the socket: about one of the export's
 * chunks (EXPORT_CHUNK_CHARS). `Readable.from` otherwise counts objects, and holds 16 chunks of
 * whatever size ahead of a reader that stopped.
 */
const WAITING_BYTES = 16 * 1024;

/**
 * The answer of a procedure whose result is a streamed file (`streamed` in its meta: the export),
 * as the file itself. Fastify pipes the chunks to the socket, pulling the next chunk only when the
 * socket has taken the last (backpressure); a connection cut (or ended as too slow:
 * export-limits.ts) destroys the stream, which ends the export.
 */
export function sendStreamed(reply: FastifyReply, chunks: AsyncIterable<string>, input: unknown): FastifyReply {
  const format = (input as { format?: (typeof EXPORT_FORMATS)[number] } | undefined)?.format ?? 'csv';
  return reply
    .type(EXPORT_MEDIA_TYPES[format] ?? EXPORT_MEDIA_TYPES.csv)
    .header('content-disposition', `attachment; filename="links.${format}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(chunks, { objectMode: false, highWaterMark: WAITING_BYTES }));
}
