import { isBot } from '@shortlinks/api/redirects';
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { ServerMetrics } from './metrics/server-metrics.ts';
import type { VisitLog } from './redirects/visit-log.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A short-link visit: logged by the {@link VisitLog} (a line at debug, a summary at info). */
    visit?: boolean;
  }
}

/** The route of a request no route matched (the 404 handler's): one label, whatever was asked. */
const UNMATCHED = 'unmatched';

/**
 * One structured line per request, written when it completes (Fastify's default writes two);
 * short-link visits are the {@link VisitLog}'s. The line has the request id (`reqId`, the
 * client's `X-Request-Id` when it is safe: request-id.ts), the method, the full path as asked
 * (`url`), the route pattern (`route`), status, time, and the API key's id (`keyId`, never the
 * key). At debug level the headers as well, with Authorization and Cookie redacted
 * (build-server.ts), so API keys never reach the logs. The same point feeds the request metrics.
 */
export class OneLinePerRequest extends LogController {
  readonly #visits: VisitLog;
  readonly #metrics: ServerMetrics | undefined;

  constructor(visits: VisitLog, metrics?: ServerMetrics) {
    super();
    this.#visits = visits;
    this.#metrics = metrics;
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (!error && request.routeOptions.config.visit) {
      const ms = this.#visits.eachLine ? reply.elapsedTime : undefined;
      this.#visits.visited(request.method, request.url, reply.statusCode, isBot(request.headers['user-agent']), ms);
      return;
    }
    const route = request.routeOptions.url ?? UNMATCHED;
    this.#metrics?.requestCompleted(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    const line: Record<string, unknown> = {
      method: request.method,
      // As the client asked it: a scope's prefix or a rewrite never shortens it.
      url: request.originalUrl,
      route,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    // Only the API scope knows callers (plugins/authentication.ts).
    const caller = (request as Partial<FastifyRequest>).caller;
    if (caller?.keyId) line.keyId = caller.keyId;
    // A signed-in person by their id, never their session's secret or email.
    else if (caller?.user) line.userId = caller.user.id;
    // For debugging, the headers too; the logger's redaction replaces Authorization and Cookie.
    if (reply.log.level === 'debug' || reply.log.level === 'trace') line.headers = request.headers;
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request');
  }
}
