// @fastify/rate-limit's own stores, which it ships without types (they are internal: the catalog
// pins the plugin's major version). shared-rate-counts.ts combines them.
declare module '@fastify/rate-limit/store/RedisStore.js' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';
  import type { Redis } from 'ioredis';

  export default class RedisStore implements FastifyRateLimitStore {
    constructor(continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, nameSpace?: string);
    incr: FastifyRateLimitStore['incr'];
    child: FastifyRateLimitStore['child'];
  }
}

declare module '@fastify/rate-limit/store/LocalStore.js' {
  import type { FastifyRateLimitStore } from '@fastify/rate-limit';

  export default class LocalStore implements FastifyRateLimitStore {
    constructor(continueExceeding: boolean, exponentialBackoff: boolean, cache?: number);
    incr: FastifyRateLimitStore['incr'];
    child: FastifyRateLimitStore['child'];
  }
}
