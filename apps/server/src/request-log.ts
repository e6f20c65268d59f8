import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * One structured line per request, written when it completes (Fastify's default writes two).
 * Method, path, status and time; at debug level the headers as well, with Authorization and
 * Cookie redacted (build-server.ts), so API keys never reach the logs.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line: Record<string, unknown> = {
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    // For debugging, the headers too; the logger's redaction replaces Authorization and Cookie.
    if (reply.log.level === 'debug' || reply.log.level === 'trace') line.headers = request.headers;
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }
}
