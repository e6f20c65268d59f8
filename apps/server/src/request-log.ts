import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { VisitLog } from './redirects/visit-log.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A short-link visit: logged by the {@link VisitLog} (a line at debug, a summary at info). */
    visit?: boolean;
  }
}

/**
 * One structured line per request, written when it completes (Fastify's default writes two);
 * short-link visits are the {@link VisitLog}'s.
 * Method, path, status and time; at debug level the headers as well, with Authorization and
 * Cookie redacted (build-server.ts), so API keys never reach the logs.
 */
export class OneLinePerRequest extends LogController {
  readonly #visits: VisitLog;

  constructor(visits: VisitLog) {
    super();
    this.#visits = visits;
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (!error && request.routeOptions.config.visit) {
      this.#visits.visited(request.method, request.url, reply.statusCode, this.#visits.eachLine ? reply.elapsedTime : undefined);
      return;
    }
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
