import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import { AppError } from '@shortlinks/api/errors';
import { apiRateLimit, type RateLimitSettings } from '@shortlinks/api/plans';
import { boundedAddress } from '@shortlinks/api/redirects';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { rateLimitRedis, SharedRateCounts, waitForRedis } from './shared-rate-counts.ts';

/** Keys and addresses each limiter keeps counting at most; the least recently seen are forgotten first. */
export const TRACKED_CLIENTS = 50_000;

/**
 * The client's address as the rate limits count it: IPv6 clients by their /64, which is what one
 * host or household usually holds; an IPv4 address as it is (normalising it would change nothing,
 * and the redirect route calls this on every visit); no longer than the limits keep
 * (`boundedAddress`: a forged X-Forwarded-For may be 16 KiB).
 */
export const clientAddress = (ip: string): string => boundedAddress(ip.includes(':') ? normalizeIP(ip) : ip);

/** The 429 of both transports and of redirects; `statusCode` is for Fastify's own error handler. */
export function rateLimited(after: string, who: string): AppError {
  return Object.assign(new AppError('RATE_LIMITED', `Too many requests ${who}; retry in ${after}`), { statusCode: 429 });
}

/**
 * Registers @fastify/rate-limit on the root instance, applying to no route by itself: the API
 * scopes (REST and tRPC) share one limiter through `app.rateLimit()`, counted against the caller
 * the authentication plugin found (or the client address without one), so a key's budget is the
 * same whichever transport it uses. Counters live in this process's memory, or with `redisUrl` in
 * Redis, shared by every instance (shared-rate-counts.ts, docs/scaling.md).
 */
export async function registerRateLimits(app: FastifyInstance, settings: RateLimitSettings, redisUrl?: string): Promise<void> {
  // Requests per window for this request's caller; 0 (an operator's choice) counts nothing.
  const limitOf = (request: FastifyRequest) => (request.caller ? apiRateLimit(request.caller, settings) : settings.anonymous);
  await app.register(fastifyRateLimit, {
    global: false,
    enableDraftSpec: true,
    timeWindow: settings.windowMs,
    ...(redisUrl ? { store: sharedCounts(app, redisUrl) } : { cache: TRACKED_CLIENTS }),
    keyGenerator: (request) => (request.caller ? `key:${request.caller.keyId}` : `ip:${clientAddress(request.ip)}`),
    allowList: (request) => limitOf(request) === 0,
    max: limitOf,
    errorResponseBuilder: (request, context) => rateLimited(context.after, request.caller ? 'for this API key' : 'from this address'),
  });
}

/** The counters in Redis, connected before the server listens and closed with it. */
function sharedCounts(app: FastifyInstance, redisUrl: string) {
  const redis = rateLimitRedis(redisUrl);
  // Every failed reconnection emits an error; the store says once that counting went local.
  redis.on('error', (error: Error) => app.log.debug({ err: error }, 'rate-limit Redis'));
  app.addHook('onReady', async () => {
    if (!(await waitForRedis(redis))) app.log.warn('rate limits: Redis did not answer at start; counting in this process until it does');
  });
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  return SharedRateCounts.store(redis, {
    trackedClients: TRACKED_CLIENTS,
    log: { warn: (message) => app.log.warn(message), info: (message) => app.log.info(message) },
  });
}
