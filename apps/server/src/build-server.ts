import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fastifyCookie from '@fastify/cookie';
import proxyAddr from '@fastify/proxy-addr';
import { AppError } from '@shortlinks/api/errors';
import { DEFAULT_RATE_LIMITS, type RateLimitSettings } from '@shortlinks/api/plans';
import { Visits } from '@shortlinks/api/redirects';
import type { Services } from '@shortlinks/api/services';
import { SsoService, type SsoSettings } from '@shortlinks/api/sso';
import { ChangeListener, type Orm } from '@shortlinks/db';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import { BODY_LIMIT_BYTES } from './body-limits.ts';
import { answerClientError } from './client-errors.ts';
import {
  type ConnectionLimits,
  capConnections,
  closeAfterUnreadBody,
  connectionOptions,
  DEFAULT_CONNECTION_LIMITS,
} from './connection-limits.ts';
import { DEFAULT_EXPORT_LIMITS, type ExportLimits, registerExportLimits } from './export-limits.ts';
import { logDestination } from './log-destination.ts';
import { listenForMetrics } from './metrics/metrics-listener.ts';
import { createServerMetrics } from './metrics/server-metrics.ts';
import { authenticationPlugin } from './plugins/authentication.ts';
import { dashboardPlugin } from './plugins/dashboard.ts';
import { extensionCorsPlugin } from './plugins/extension-cors.ts';
import { healthPlugin } from './plugins/health.ts';
import { openApiPlugin } from './plugins/openapi.ts';
import { redirectPlugin } from './plugins/redirect.ts';
import { NOT_FOUND_PAGE, sendPage } from './plugins/redirect-pages.ts';
import { restPlugin } from './plugins/rest.ts';
import { pendingCookieKey, singleSignOnPlugin } from './plugins/single-sign-on.ts';
import { tlsAskPlugin } from './plugins/tls-ask.ts';
import { trpcPlugin } from './plugins/trpc.ts';
import { registerRateLimits, TRACKED_CLIENTS } from './rate-limits.ts';
import { fastRedirectServer, type TrustProxy } from './redirects/fast-redirects.ts';
import { VisitLog } from './redirects/visit-log.ts';
import { incomingRequestId, REQUEST_ID_HEADER, requestIdOf } from './request-id.ts';
import { OneLinePerRequest } from './request-log.ts';
import type { CookiePolicy } from './session-cookie.ts';
import { CountedSignInAttempts, DEFAULT_SIGN_IN_LIMITS, type SignInLimits } from './sign-in-limits.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where Prometheus scrapes this server (`http://host:port/metrics`) once it is ready; null when metrics are off. */
    metricsUrl: string | null;
  }
}

export interface ServerOptions {
  orm: Orm;
  services: Services;
  /** For the link change announcements (LISTEN needs its own connection). */
  databaseUrl: string;
  /** The server's own origin, for the OpenAPI document's server URL. */
  baseUrl: string;
  /**
   * The dashboard's public origin (PUBLIC_URL). When it is https, the session cookie is always
   * `Secure`; otherwise it is `Secure` for requests that came over HTTPS (docs/security.md).
   */
  publicUrl?: string | undefined;
  /** Single sign-on with OpenID Connect (OIDC_* settings: docs/accounts.md); unset: none. */
  singleSignOn?: SsoSettings | undefined;
  /** Overrides of the limits on failed sign-ins (docs/security.md); tests set them. */
  signInLimits?: Partial<SignInLimits>;
  logLevel?: string;
  /** Header set by a trusted proxy with the visitor's country (e.g. `cf-ipcountry`); statistics only. */
  countryHeader?: string | undefined;
  /** How often short-link visits are summed up in the log (visit-log.ts); tests shorten it. */
  visitSummaryMs?: number;
  /** Where log lines go (standard output when unset); tests capture them. */
  logStream?: { write(line: string): void };
  /** Overrides of the default rate limits (docs/security.md). */
  rateLimits?: Partial<RateLimitSettings>;
  /** Fastify's trustProxy, so client IPs (rate limits, logs) come from X-Forwarded-For behind a proxy. */
  trustProxy?: boolean | number | string[] | undefined;
  /** Redis or Valkey where every instance counts the API's rate limits together (docs/scaling.md). */
  redisUrl?: string | undefined;
  /** Overrides of the default request timeouts and connection cap (docs/security.md). */
  connectionLimits?: Partial<ConnectionLimits>;
  /** Overrides of the default cap on concurrent exports and of the slow-reader rule (docs/security.md). */
  exportLimits?: Partial<ExportLimits>;
  /** Serve Prometheus metrics at `/metrics` on a listener of its own (`METRICS_PORT`; port 0 picks a free one); unset: none. */
  metrics?: { port: number; host: string } | undefined;
}

const MALFORMED_URL = new AppError('MALFORMED_REQUEST', 'The URL is not valid percent-encoded UTF-8').toBody();

/** Builds the HTTP server without listening, so tests can start it on port 0. */
export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const { orm, services, databaseUrl, baseUrl, logLevel = 'info', logStream, countryHeader } = options;
  const connections = { ...DEFAULT_CONNECTION_LIMITS, ...options.connectionLimits };
  const rateLimits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits };
  const trust = trustOf(options.trustProxy);
  // A visit's one entry into the API package, for both paths: this server's limit and country header.
  const visits = new Visits(
    {
      redirects: services.redirects,
      smartRedirects: services.smartRedirects,
      clicks: services.clicks,
      domains: services.domains.directory,
    },
    {
      limit: rateLimits.redirects,
      windowMs: rateLimits.windowMs,
      trackedAddresses: TRACKED_CLIENTS,
      countryHeader,
    },
  );
  let log: FastifyBaseLogger | undefined;
  const visitLog = new VisitLog(() => log, options.visitSummaryMs);
  const metrics = options.metrics ? await createServerMetrics({ services, orm, visits: visitLog.counts }) : undefined;
  const app = Fastify({
    // Cached links are answered before Fastify: the hottest path runs no framework (docs/performance.md).
    serverFactory: fastRedirectServer({ visits, trust, visitLog }),
    ...connectionOptions(connections),
    logger: {
      level: logLevel,
      // API keys must never reach the logs.
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie'],
        censor: '[redacted]',
      },
      stream: logStream ?? logDestination(),
    },
    trustProxy: trust ?? false,
    // The client's X-Request-Id when it is safe to log, else a new UUID (request-id.ts).
    requestIdHeader: false,
    genReqId: requestIdOf,
    // Raised for bulk calls only, on their own routes (body-limits.ts).
    bodyLimit: BODY_LIMIT_BYTES,
    clientErrorHandler: answerClientError,
    // A path with broken percent-encoding (`/links/%ED%A0%80`) names no route.
    frameworkErrors: (_error, request, reply) => {
      (reply as FastifyReply).code(400).header(REQUEST_ID_HEADER, request.id).send(MALFORMED_URL);
    },
    // Long ext_ ids are URL-encoded into the path.
    routerOptions: { maxParamLength: 2048 },
    logController: new OneLinePerRequest(visitLog, metrics),
  });

  log = app.log;
  // First of all hooks, so every answer from here on names its request: errors, 404s and 429s too.
  // A short-link visit has no line of its own to name (visit-log.ts), and the fast path makes up
  // no id: on either path a visit echoes the client's id only, so both answer alike.
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.routeOptions.config.visit || incomingRequestId(request.headers) !== undefined) reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  app.decorate('metricsUrl', null);
  if (metrics && options.metrics) {
    const { port, host } = options.metrics;
    let listener: Server | undefined;
    app.addHook('onReady', async () => {
      listener = await listenForMetrics(metrics.registry, port, host);
      const address = listener.address() as AddressInfo;
      app.metricsUrl = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}/metrics`;
    });
    app.addHook('onClose', async () => {
      if (!listener) return;
      const closed = new Promise((resolve) => listener?.close(resolve));
      // A scraper's kept-alive connection would hold the close for its whole idle timeout.
      listener.closeAllConnections();
      await closed;
    });
  }
  // The last part of a minute's visits is summed up too when the server stops.
  app.addHook('onClose', async () => visitLog.close());
  capConnections(app, connections.maxConnections);
  // On the root: an answer given before its body came (a 401, a 429, a redirect) closes the
  // connection, whichever route gave it.
  closeAfterUnreadBody(app);

  const counts = await registerRateLimits(app, rateLimits, options.redisUrl);
  const signInAttempts = new CountedSignInAttempts(counts, { ...DEFAULT_SIGN_IN_LIMITS, ...options.signInLimits });
  // Wrong passwords of protected links are counted there too: across instances with REDIS_URL.
  services.smartRedirects.countGuessesIn(counts);
  const cookies: CookiePolicy = { alwaysSecure: options.publicUrl?.startsWith('https://') ?? false };
  registerExportLimits(app, { ...DEFAULT_EXPORT_LIMITS, ...options.exportLimits });
  await app.register(healthPlugin, { orm });
  await app.register(apiScope, { services, baseUrl, cookies, signInAttempts });
  const sso = options.singleSignOn && new SsoService(orm, services.signIn, options.singleSignOn, services.members);
  const cookieKey = options.singleSignOn && pendingCookieKey(options.singleSignOn.clientSecret);
  await app.register(singleSignOnPlugin, { sso, cookieKey, services, cookies, signInAttempts, publicUrl: options.publicUrl });
  await app.register(dashboardPlugin, { prefix: '/app' });
  // Outside the API scope, so a redirect runs no CORS hook.
  await app.register(redirectPlugin, { visits, visitCounts: visitLog.counts });
  await app.register(tlsAskPlugin, { visits });

  // What every cache of the process forgets as changes are announced, and when announcements may
  // have been missed, is written once: packages/api/src/cache-coherence.ts. Buffered clicks are
  // written on a timer and, on close (after the last request), once more.
  const listener = new ChangeListener(
    databaseUrl,
    services.coherence.changeHandlers((message) => app.log.warn(message)),
  );
  app.addHook('onReady', async () => {
    await listener.start();
    // Which hosts are served, before the first visit (docs/domains.md); a database not there yet
    // serves the server's own domain only until the listener's connection reloads them.
    await services.domains.directory.reload().catch((error: Error) => app.log.warn(`could not read the domains: ${error.message}`));
    services.clicks.start();
    services.domainRechecks.start();
  });
  app.addHook('onClose', async () => {
    await services.domainRechecks.stop();
    await services.clicks.stop();
    await listener.stop();
  });
  // Webhook deliveries: the queue on this database, started with the server (docs/webhooks.md).
  app.addHook('onReady', async () => services.webhookQueue.start(databaseUrl, (message) => app.log.warn(message)));
  app.addHook('onClose', async () => services.webhookQueue.stop());
  return app;
}

/**
 * The API and everything answered like it: REST, tRPC, the OpenAPI document and page, and every
 * path no route serves. CORS for the extension comes first, so every answer here (a 429 or a 404
 * included) carries its headers.
 */
async function apiScope(app: FastifyInstance, { services, baseUrl, cookies, signInAttempts }: ApiScopeOptions) {
  await app.register(extensionCorsPlugin);
  // The session cookie is read (on tRPC only) by the authentication plugin, and set by sign-in.
  await app.register(fastifyCookie);
  // After CORS (a preflight needs no key), before everything that reads the caller.
  await app.register(authenticationPlugin, { services, cookies });
  // Any method and path no plugin serves. A visitor's browser (GET or HEAD outside the API:
  // `/launch/`, `/a/b`) gets the same page as for an unknown slug; everything else, such as
  // `OPTIONS /api/v1/links` or `POST /x`, the API's error shape.
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const visitor = (request.method === 'GET' || request.method === 'HEAD') && !/^\/(api|trpc)\//.test(path);
    if (visitor) return sendPage(reply, 404, NOT_FOUND_PAGE);
    return reply.code(404).send({ code: 'NOT_FOUND', message: `Nothing is served at ${request.method} ${path}` });
  });
  // Separate scopes: the tRPC adapter replaces the JSON body parser, and the REST scope's
  // authentication and error rewriting must not leak into the others.
  await app.register(openApiPlugin, { baseUrl });
  await app.register(restPlugin, { services });
  await app.register(trpcPlugin, { services, cookies, signInAttempts });
}

interface ApiScopeOptions {
  services: Services;
  baseUrl: string;
  cookies: CookiePolicy;
  signInAttempts: CountedSignInAttempts;
}

/** TRUST_PROXY as a hop count: the nearest `hops` proxies are trusted. */
function trustedHops(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/** TRUST_PROXY as the one function both Fastify and the fast redirect path ask; undefined trusts no proxy. */
function trustOf(setting: ServerOptions['trustProxy']): TrustProxy | undefined {
  if (setting === undefined || setting === false) return undefined;
  if (setting === true) return () => true;
  if (typeof setting === 'number') return trustedHops(setting);
  return proxyAddr.compile(setting);
}
