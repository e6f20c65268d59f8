import type { IncomingMessage, Server } from 'node:http';
import type { FastifyHttpOptions, FastifyInstance } from 'fastify';

/**
 * How long a client may take to send a request, how long a connection may sit with nothing moving,
 * and how many connections the process holds at most (docs/security.md, "Connections").
 */
export interface ConnectionLimits {
  /**
   * The request line, the headers and the body must all have arrived this long (ms) after the
   * request began, or the client gets 408 REQUEST_TIMEOUT and the connection is closed. The time
   * the server takes to answer does not count.
   */
  requestMs: number;
  /** The request line and headers must have arrived within this (ms); never more than `requestMs`. */
  headersMs: number;
  /**
   * A connection with no byte moving either way for this long (ms) is closed without an answer:
   * a client that stops reading its answer, or an answer that takes this long to start.
   */
  idleMs: number;
  /** Open connections the process accepts at most; 0 sets no cap (the operating system's file limit). */
  maxConnections: number;
  /** How often requests still arriving are compared with the timeouts (ms): the answer comes at most this much late. */
  checkIntervalMs: number;
}

/** The request and header timeouts of a production server. */
export const REQUEST_TIMEOUT_MS = 30_000;
export const HEADERS_TIMEOUT_MS = 20_000;

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  requestMs: REQUEST_TIMEOUT_MS,
  headersMs: HEADERS_TIMEOUT_MS,
  // Longer than the request timeout, and than a bulk call's URL checks at the default
  // REPUTATION_TIMEOUT_MS (13 rounds of 1.5 s; env.ts refuses a setting that does not fit).
  idleMs: 60_000,
  maxConnections: 0,
  checkIntervalMs: 1_000,
};

/**
 * Fastify's (and through it Node's) server options for these limits. Node keeps its own checks of
 * requests in progress, so they cost nothing per request; Fastify leaves the request timeout off
 * by default, and a request whose body never came would hold its socket forever.
 */
export function connectionOptions(
  limits: ConnectionLimits,
): Pick<FastifyHttpOptions<Server>, 'requestTimeout' | 'connectionTimeout' | 'http'> {
  return {
    requestTimeout: limits.requestMs,
    connectionTimeout: limits.idleMs,
    http: {
      headersTimeout: Math.min(limits.headersMs, limits.requestMs),
      requestTimeout: limits.requestMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
  };
}

/** A connection over the cap is closed at once, without an answer; the operator hears of it once a minute at most. */
export function capConnections(app: FastifyInstance, maxConnections: number): void {
  if (maxConnections <= 0) return;
  app.server.maxConnections = maxConnections;
  // Refused since the last warning.
  let refused = 0;
  let warnedAt = Number.NEGATIVE_INFINITY;
  app.server.on('drop', () => {
    refused += 1;
    const now = Date.now();
    if (now - warnedAt < 60_000) return;
    app.log.warn({ refused, maxConnections }, `refused connections over MAX_CONNECTIONS (${maxConnections})`);
    warnedAt = now;
    refused = 0;
  });
}

/**
 * An answer sent before the request's body has all arrived (a 401 or 429 from an onRequest hook)
 * closes the connection: Node would otherwise keep reading the rest of the body, and on a body that
 * never comes answer a second time, 408, once the request timeout passes. (Fastify's own 413 for a
 * Content-Length over the limit closes it already.)
 */
export function closeAfterUnreadBody(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!request.raw.complete && announcesBody(request.raw)) reply.header('connection', 'close');
    done(null, payload);
  });
}

/**
 * Whether a request has a body at all. A request without one is not `complete` either while it is
 * answered in the same turn as its headers arrive (a synchronous route), and must keep its
 * connection.
 */
export function announcesBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
