import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * One structured line per request, written when it completes (Fastify's default writes two).
 * The Authorization header is never logged: only method, path, status and time.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }
}
