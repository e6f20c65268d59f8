import fastifyRateLimit, { type FastifyRateLimitStoreCtor, normalizeIP } from '@fastify/rate-limit';
import { AppError } from '@shortlinks/api/errors';
import { apiRateLimit, type RateLimitSettings } from '@shortlinks/api/plans';
import { boundedAddress } from '@shortlinks/api/redirects';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LocalRateCounts, type RateCounts } from './rate-counts.ts';
import { rateLimitRedis, SharedRateCounts, waitForRedis } from './shared-rate-counts.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Spends the rest of a request's weight (its calls' weight: `requestWeight` in @shortlinks/api)
     * beyond the 1 counted when it arrived, once its body is read; throws 429 RATE_LIMITED, with
     * `Retry-After`, and spends nothing more when the rest does not fit in the key's budget.
     * `RateLimit-Remaining` then says what is left.
     */
    spendRateLimit(request: FastifyRequest, reply: FastifyReply, weight: number): Promise<void>;
  }
}

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
 * same whichever transport it uses. The plugin counts 1 for every request as it arrives; a request
 * that carries more work (a tRPC batch, a bulk call) spends the rest through
 * `app.spendRateLimit()` once its body is read, in the same counters. Counters live in this
 * process's memory, or with `redisUrl` in Redis, shared by every instance (shared-rate-counts.ts,
 * docs/scaling.md), which it returns for the limits on failed sign-ins.
 */
export async function registerRateLimits(app: FastifyInstance, settings: RateLimitSettings, redisUrl?: string): Promise<RateCounts> {
  // Requests per window for this request's caller; 0 (an operator's choice) counts nothing.
  const limitOf = (request: FastifyRequest) => (request.caller ? apiRateLimit(request.caller, settings) : settings.anonymous);
  const keyOf = (request: FastifyRequest) => {
    const { caller } = request;
    if (!caller) return `ip:${clientAddress(request.ip)}`;
    // A signed-in person has one budget for all their sessions, as a key has.
    return caller.keyId === null ? `user:${caller.user?.id}` : `key:${caller.keyId}`;
  };
  const whoOf = (request: FastifyRequest) => {
    if (!request.caller) return 'from this address';
    return request.caller.keyId === null ? 'for this person' : 'for this API key';
  };
  const counts: RateCounts = redisUrl ? sharedCounts(app, redisUrl) : new LocalRateCounts(TRACKED_CLIENTS);
  await app.register(fastifyRateLimit, {
    global: false,
    enableDraftSpec: true,
    timeWindow: settings.windowMs,
    store: storeOf(counts),
    keyGenerator: keyOf,
    allowList: (request) => limitOf(request) === 0,
    max: limitOf,
    errorResponseBuilder: (request, context) => rateLimited(context.after, whoOf(request)),
  });

  app.decorate('spendRateLimit', async (request: FastifyRequest, reply: FastifyReply, weight: number) => {
    const max = limitOf(request);
    if (weight <= 1 || max === 0) return;
    const { taken, current, ttl } = await counts.take(keyOf(request), weight - 1, settings.windowMs, max);
    const reset = Math.max(1, Math.ceil(ttl / 1000));
    reply.header('ratelimit-remaining', Math.max(0, max - current)).header('ratelimit-reset', reset);
    if (taken) return;
    reply.header('retry-after', reset);
    throw rateLimited(`${reset} seconds`, whoOf(request));
  });
  // Failed sign-ins are counted in the same counters, under keys of their own (sign-in-limits.ts).
  return counts;
}

/**
 * The plugin makes its store with `new`, from options of its own; these counters are needed
 * beside it (`take`), so its constructor hands over the one instance.
 */
function storeOf(counts: RateCounts): FastifyRateLimitStoreCtor {
  return function Store() {
    return counts;
  } as unknown as FastifyRateLimitStoreCtor;
}

/** The counters in Redis, connected before the server listens and closed with it. */
function sharedCounts(app: FastifyInstance, redisUrl: string): SharedRateCounts {
  const redis = rateLimitRedis(redisUrl);
  // Every failed reconnection emits an error; the store says once that counting went local.
  redis.on('error', (error: Error) => app.log.debug({ err: error }, 'rate-limit Redis'));
  app.addHook('onReady', async () => {
    if (!(await waitForRedis(redis))) app.log.warn('rate limits: Redis did not answer at start; counting in this process until it does');
  });
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  return new SharedRateCounts(redis, {
    trackedClients: TRACKED_CLIENTS,
    log: { warn: (message) => app.log.warn(message), info: (message) => app.log.info(message) },
  });
}
