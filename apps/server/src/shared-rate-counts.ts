/// <reference path="./fastify-rate-limit-stores.d.ts" />
import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import { Redis } from 'ioredis';
import { LocalRateCounts, type RateCounts, type WindowCount } from './rate-counts.ts';

/** Where the counters live in Redis: `shortlinks:rate-limit:key:<keyId>` or `…:ip:<address>`. */
export const REDIS_NAMESPACE = 'shortlinks:rate-limit:';

/** After a failed Redis call, requests count in this process for this long before Redis is tried again. */
const RETRY_REDIS_AFTER_MS = 1_000;

/** How long start-up waits for Redis, so the first requests are counted by every instance together. */
export const REDIS_READY_WAIT_MS = 5_000;

/**
 * The rest of a request's weight, added to the plugin's counter only if it fits (rate-counts.ts).
 * The key and its expiry are the plugin's (RedisStore's script): a window that ended in between
 * starts again with these units.
 */
const TAKE_SCRIPT = `
  local current = tonumber(redis.call('GET', KEYS[1]) or '0')
  local units = tonumber(ARGV[2])
  if current + units > tonumber(ARGV[3]) then
    return {0, current, redis.call('PTTL', KEYS[1])}
  end
  current = redis.call('INCRBY', KEYS[1], units)
  if current == units then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
  return {1, current, redis.call('PTTL', KEYS[1])}
`;

/**
 * A client for the shared counters, failing fast rather than queueing or retrying: a count that
 * waits holds up its API request, and an INCR sent twice counts twice. The connection is opened
 * at start (`waitForRedis`), then kept up by ioredis's reconnection, which never gives up.
 */
export function rateLimitRedis(url: string): Redis {
  return new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    // The count is one EVALSHA on a key: well under a millisecond on a local network.
    commandTimeout: 250,
  });
}

/**
 * Connects, and waits until Redis answers (at most `ms`); false when it did not, and counting
 * starts per process. A refused connection is no reason to stop waiting: Redis may be starting
 * beside this server, and ioredis tries again within 2 s.
 */
export async function waitForRedis(redis: Redis, ms = REDIS_READY_WAIT_MS): Promise<boolean> {
  // A refused first connection is retried by ioredis on its own; the rejection says nothing more.
  if (redis.status === 'wait') redis.connect().catch(() => {});
  if (redis.status === 'ready') return true;
  return new Promise((resolve) => {
    const ready = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      redis.off('ready', ready);
      resolve(false);
    }, ms);
    redis.once('ready', ready);
  });
}

export interface SharedCountsOptions {
  /** Keys and addresses the per-process fallback tracks at most. */
  trackedClients: number;
  /** Told once when counting leaves Redis, and once when it comes back, never per request. */
  log: { warn(message: string): void; info(message: string): void };
}

/**
 * The API's rate-limit counters in Redis, shared by every instance, with this process's own
 * counters standing in while Redis is unreachable: the limits then hold per instance (N instances
 * allow N times a budget) instead of not at all, and no request is refused or delayed because
 * Redis is down. Redis counts with @fastify/rate-limit's own Lua script (fixed windows that start at
 * a key's first request and are owned by Redis), and a request's further weight with TAKE_SCRIPT
 * on the same key; the fallback is LocalRateCounts. What was counted in memory during an outage is not added to Redis
 * afterwards; a window at most lets a key spend one more budget then.
 */
export class SharedRateCounts implements RateCounts {
  readonly #redis: Redis;
  readonly #shared: RedisStore;
  readonly #local: LocalRateCounts;
  readonly #log: SharedCountsOptions['log'];
  #failedAt = Number.NEGATIVE_INFINITY;
  #sharing = true;

  constructor(redis: Redis, { trackedClients, log }: SharedCountsOptions) {
    this.#redis = redis;
    this.#shared = new RedisStore(false, false, redis, REDIS_NAMESPACE);
    this.#local = new LocalRateCounts(trackedClients);
    this.#log = log;
  }

  incr(...[key, callback, timeWindow, max]: Parameters<FastifyRateLimitStore['incr']>): void {
    if (!this.#askRedis()) {
      this.#local.incr(key, callback, timeWindow, max);
      return;
    }
    this.#shared.incr(
      key,
      (error, result) => {
        if (!error) {
          this.#countedTogether();
          callback(null, result);
          return;
        }
        this.#failedAt = Date.now();
        this.#countedAlone(error.message);
        this.#local.incr(key, callback, timeWindow, max);
      },
      timeWindow,
      max,
    );
  }

  async take(key: string, units: number, timeWindow: number, max: number): Promise<WindowCount & { taken: boolean }> {
    if (!this.#askRedis()) return this.#local.take(key, units, timeWindow, max);
    try {
      const [taken, current, ttl] = (await this.#redis.eval(TAKE_SCRIPT, 1, REDIS_NAMESPACE + key, timeWindow, units, max)) as number[];
      this.#countedTogether();
      return { taken: taken === 1, current: current ?? 0, ttl: Math.max(0, ttl ?? 0) };
    } catch (error) {
      this.#failedAt = Date.now();
      this.#countedAlone((error as Error).message);
      return this.#local.take(key, units, timeWindow, max);
    }
  }

  /** Per-route budgets would split REST's and tRPC's one budget per key: the API never asks for them. */
  child(): FastifyRateLimitStore {
    throw new Error('the API rate limit is one budget per key for every route: use app.rateLimit() without options');
  }

  /** Whether to count in Redis now; when not, counting is this process's (and said so once). */
  #askRedis(): boolean {
    // A disconnected client would refuse the command anyway; not asking spares an error per request.
    if (this.#redis.status === 'ready' && Date.now() - this.#failedAt >= RETRY_REDIS_AFTER_MS) return true;
    this.#countedAlone(this.#redis.status === 'ready' ? 'Redis failed a moment ago' : `Redis connection: ${this.#redis.status}`);
    return false;
  }

  #countedAlone(reason: string) {
    if (!this.#sharing) return;
    this.#sharing = false;
    this.#log.warn(`rate limits: counting in this process only until Redis answers again (${reason})`);
  }

  #countedTogether() {
    if (this.#sharing) return;
    this.#sharing = true;
    this.#log.info('rate limits: Redis answers again; counting is shared by every instance');
  }
}
