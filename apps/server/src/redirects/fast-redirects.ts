import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { isBot, type RedirectOutcome, redirectKey, type Visits } from '@shortlinks/api/redirects';
import { isReservedSlug } from '@shortlinks/contract/rules';
import type { FastifyServerOptions } from 'fastify';
import { announcesBody } from '../connection-limits.ts';
import { clientAddress } from '../rate-limits.ts';
import { incomingRequestId, REQUEST_ID_HEADER } from '../request-id.ts';
import { redirectHeaders, visitRefusal } from './visit.ts';
import type { VisitLog } from './visit-log.ts';

/** `/slug` or `/slug?query`: one path segment of slug characters, at most 64 (the spec's limit). */
const SLUG_PATH = /^\/([A-Za-z0-9_-]{1,64})(?:\?|$)/;

/** Which proxies to believe about the client address, as Fastify's `trustProxy` is given. */
export type TrustProxy = (address: string, hop: number) => boolean;

export interface FastRedirectOptions {
  /** Where a slug leads, the limit per visitor and the click: the same `Visits` as Fastify's route. */
  visits: Visits;
  /** The same trust Fastify is given; none: the socket's address. */
  trust: TrustProxy | undefined;
  /** Where visits are counted and logged. */
  visitLog: VisitLog;
}

/**
 * Fastify's `serverFactory`: the HTTP server, whose requests for a link already in the redirect
 * cache are answered here, before Fastify, and all others are handed to Fastify.
 *
 * A cached redirect is the hottest path of the server and has nothing for a framework to do:
 * no body, no hooks, one answer from memory. Going through Fastify's routing, request and reply
 * objects and per-request logger cost more than the rest of the visit together
 * (docs/performance.md). What the visit does is the same code as on Fastify's route: the API
 * package's `Visits` (the limit per visitor, the click) and redirects/visit.ts (the same headers),
 * and the same request log line. A cached smart link is answered here too when the request alone
 * decides its visit (`Visits.smartRedirectAtOnce`: rules, a valid unlock cookie). Anything else (a slug not cached yet, unknown or expired, a reserved word, another
 * method, a request with a body, percent-encoded paths) goes to Fastify, which counts and answers it once.
 */
export function fastRedirectServer(fast: FastRedirectOptions) {
  return (fastifyHandler: RequestListener, options: FastifyServerOptions & { http?: object }): Server => {
    const server = createServer(options.http ?? {}, (request, response) => {
      if (!answerCachedVisit(fast, request, response)) fastifyHandler(request, response);
    });
    // As Fastify sets up a server it makes itself (lib/server.js).
    if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
    if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
    server.setTimeout(options.connectionTimeout ?? 0);
    if ((options.maxRequestsPerSocket ?? 0) > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket ?? 0;
    return server;
  };
}

/** Answers a visit of a cached, redirecting link; false when Fastify must answer the request. */
function answerCachedVisit({ visits, trust, visitLog }: FastRedirectOptions, request: IncomingMessage, response: ServerResponse): boolean {
  const { method, url } = request;
  // A visit with a body (rare, odd) goes to Fastify, which closes its connection unread (connection-limits.ts).
  if ((method !== 'GET' && method !== 'HEAD') || url === undefined || announcesBody(request)) return false;
  const slug = SLUG_PATH.exec(url)?.[1];
  if (slug === undefined || isReservedSlug(slug)) return false;
  // The Host picks the domain, from memory; a host served by no domain is Fastify's 404.
  const domain = visits.hostDomain(request.headers.host);
  if (domain === undefined) return false;
  const now = Date.now();
  const outcome = visits.resolveCached(domain === null ? slug : redirectKey(domain.id, slug), now);
  // Not found, expired, unavailable: Fastify's route answers them.
  if (outcome?.kind !== 'redirect' && outcome?.kind !== 'smart') return false;
  // Timed only when the visit's own line is written (debug: visit-log.ts).
  const started = visitLog.eachLine ? performance.now() : undefined;
  const ip = clientIp(request, trust);
  const redirect = redirectAtOnce(visits, outcome, request.headers, url, ip, now);
  if (redirect === undefined) return false;
  visitLog.counts.cacheHits++;

  const retryAfter = visits.countVisit(clientAddress(ip), now);
  // Echoed when the client (or its proxy) named the request; none is made up for an answer no log line names.
  const requestId = incomingRequestId(request.headers);
  if (requestId !== undefined) response.setHeader(REQUEST_ID_HEADER, requestId);
  let status: number;
  let bot: boolean;
  if (retryAfter === undefined) {
    bot = visits.recordClick(redirect.linkId, now, method, request.headers, ip, url);
    status = 302;
    // With its length said, as Fastify says it: else Node would send an empty chunked body.
    response.writeHead(status, { ...redirectHeaders(redirect.location), 'content-length': '0' }).end();
  } else {
    const refusal = visitRefusal(visits, retryAfter);
    const body = JSON.stringify(refusal.body);
    status = 429;
    bot = isBot(request.headers['user-agent']);
    response
      .writeHead(status, {
        ...refusal.headers,
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      })
      .end(method === 'HEAD' ? undefined : body);
  }
  // Counted, and logged as Fastify's route logs a visit (request-log.ts).
  visitLog.visited(method, url, status, bot, started === undefined ? undefined : performance.now() - started);
  return true;
}

/**
 * Where a cached link sends this visit, when nothing but the request decides it: a plain link's
 * redirect as it is, and a smart link whose visit needs no wait (`Visits.smartRedirectAtOnce`:
 * rules, a valid unlock cookie). undefined: Fastify's route answers (not found, expired, a click
 * limit, a password form, a preview).
 */
function redirectAtOnce(
  visits: Visits,
  outcome: RedirectOutcome,
  headers: IncomingHttpHeaders,
  url: string,
  ip: string,
  now: number,
): { location: string; linkId: string } | undefined {
  if (outcome.kind === 'redirect') return outcome;
  if (outcome.kind !== 'smart') return undefined;
  const location = visits.smartRedirectAtOnce(outcome.target, headers, url, ip, now);
  return location === undefined ? undefined : { location, linkId: outcome.target.linkId };
}

/** The client's address as Fastify's `request.ip` gives it. */
function clientIp(request: IncomingMessage, trust: TrustProxy | undefined): string {
  if (!trust) return request.socket.remoteAddress ?? '';
  const addresses = proxyAddr.all(request, trust);
  return addresses[addresses.length - 1] ?? '';
}
