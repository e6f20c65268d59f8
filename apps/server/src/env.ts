import path from 'node:path';
import type { RemoteReputationSettings } from '@shortlinks/api/destinations';
import { DEFAULT_RATE_LIMITS } from '@shortlinks/api/plans';
import {
  DEFAULT_CLICK_BUFFER_MAX,
  DEFAULT_CLICK_FLUSH_MS,
  DEFAULT_RETENTION_DAYS,
  DEFAULT_STALE_IF_ERROR_MS,
} from '@shortlinks/api/redirects';
import { BULK_URL_CHECK_ROUNDS } from '@shortlinks/api/services';
import { DEFAULT_IMPORT_MAX_BYTES, type Plan } from '@shortlinks/contract';
import { DEFAULT_QUERY_TIMEOUT_MS } from '@shortlinks/db';
import { z } from 'zod';
import { type ConnectionLimits, DEFAULT_CONNECTION_LIMITS } from './connection-limits.ts';
import { DEFAULT_EXPORT_LIMITS, type ExportLimits } from './export-limits.ts';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A plan's API rate limit: requests per minute per key, 0 for none. */
function apiRateLimit(plan: Plan) {
  return z.coerce
    .number()
    .int('must be a whole number of requests per minute (0: no limit)')
    .min(0, 'must be a whole number of requests per minute (0: no limit)')
    .default(DEFAULT_RATE_LIMITS.apiPerPlan[plan]);
}

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Prometheus metrics at `/metrics` on this port of HOST (docs/metrics.md); unset: no metrics; 0: any free port. */
  METRICS_PORT: z.coerce
    .number()
    .int('must be a port number (0 to 65535)')
    .min(0, 'must be a port number (0 to 65535)')
    .max(65535, 'must be a port number (0 to 65535)')
    .optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATA_DIR: z.string().min(1).default('.data'),
  /** How long one database statement, or the wait for a pooled connection, may take before 503 (docs/operations.md); 0: for ever. */
  DATABASE_QUERY_TIMEOUT_MS: z.coerce
    .number()
    .int('must be a whole number of milliseconds (0: no bound)')
    .refine((ms) => ms === 0 || (ms >= 100 && ms <= 600_000), 'must be 0 (no bound) or from 100 to 600000 ms')
    .default(DEFAULT_QUERY_TIMEOUT_MS),
  SHORT_DOMAIN: z
    .string()
    .regex(/^https?:\/\/[^/?#\s]+\/?$/, 'must be an origin such as https://sho.rt (scheme and host, no path)')
    .optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  /** How often buffered clicks are written, in ms: a hard crash loses at most this much. */
  CLICK_FLUSH_MS: z.coerce.number().int().min(50).max(60_000).default(DEFAULT_CLICK_FLUSH_MS),
  /** Distinct click events kept unwritten at most while the database is unreachable; more are dropped and counted. */
  CLICK_BUFFER_MAX: z.coerce.number().int().min(1_000).max(10_000_000).default(DEFAULT_CLICK_BUFFER_MAX),
  /** Request header a trusted proxy sets to the visitor's country (e.g. CF-IPCountry); unset: countries are unknown. */
  CLICK_COUNTRY_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, 'must be an HTTP header name such as CF-IPCountry')
    .optional(),
  /** Raw click events older than this many days are deleted (statistics rollups are kept); 0 keeps them. */
  CLICK_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(DEFAULT_RETENTION_DAYS),
  /** DNS servers for domain verification, `host:port` (or `host`), comma-separated; unset: the system's resolvers. */
  DNS_SERVERS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((server) => server.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z
          .string()
          .regex(
            /^(?:[0-9.]+|\[[0-9a-fA-F:.]+\]|[0-9a-fA-F:]+)(?::\d{1,5})?$/,
            'must be IP addresses with an optional port, such as 127.0.0.1:5353,[::1]:53',
          ),
      ),
    )
    .optional(),
  /** How often a verified domain's TXT record is looked up again, in minutes (docs/domains.md). */
  DOMAIN_CHECK_INTERVAL_MINUTES: z.coerce.number().int().min(1).max(10_080).default(60),
  /** Comma-separated domains the default reputation check refuses (with their subdomains). */
  URL_DENYLIST: z.string().default(''),
  /** The remote URL safety service (docs/security.md); `none` leaves the denylists alone. */
  REPUTATION_PROVIDER: z.enum(['none', 'safe-browsing', 'web-risk']).default('none'),
  REPUTATION_API_KEY: z.string().optional(),
  REPUTATION_BASE_URL: z
    .string()
    .regex(/^https?:\/\/[^/?#\s]+\/?$/, 'must be an origin such as https://safebrowsing.googleapis.com')
    .optional(),
  REPUTATION_TIMEOUT_MS: z.coerce.number().int().min(50).max(30_000).default(1500),
  REPUTATION_CACHE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  REPUTATION_FAILURE_POLICY: z.enum(['allow', 'fail-closed']).default('allow'),
  /** API requests per minute of each key, by its account's plan; 0: no limit (docs/security.md#rate-limits). */
  API_RATE_LIMIT_STARTER: apiRateLimit('starter'),
  API_RATE_LIMIT_TRIAL: apiRateLimit('trial'),
  API_RATE_LIMIT_TEAM: apiRateLimit('team'),
  API_RATE_LIMIT_UNLIMITED: apiRateLimit('unlimited'),
  /** How long links seen before the database became unreachable keep redirecting, in seconds; 0: not at all (docs/redirects.md). */
  REDIRECT_STALE_IF_ERROR_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 86_400)
    .default(DEFAULT_STALE_IF_ERROR_MS / 1000),
  /** Redirects each client IP may follow per minute (docs/security.md). */
  REDIRECT_RATE_LIMIT: z.coerce.number().int().min(1).default(DEFAULT_RATE_LIMITS.redirects),
  /** Redis or Valkey shared by every instance for the API's rate-limit counters (docs/scaling.md); unset: per process. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, 'must be a redis:// or rediss:// URL')
    .optional(),
  /** Fastify's trustProxy: `true`, a hop count, or comma-separated proxy addresses; client IPs come from X-Forwarded-For. */
  TRUST_PROXY: z.string().optional(),
  /** The whole request (line, headers, body) must arrive within this many ms, or 408 (docs/security.md). */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(DEFAULT_CONNECTION_LIMITS.requestMs),
  /** A connection with nothing moving either way for this many ms is closed. */
  CONNECTION_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(DEFAULT_CONNECTION_LIMITS.idleMs),
  /** Open connections accepted at most; 0: no cap. */
  MAX_CONNECTIONS: z.coerce.number().int().min(0).default(DEFAULT_CONNECTION_LIMITS.maxConnections),
  /** Exports one account may run at once in one process; more: 429 (docs/security.md#exports). */
  EXPORTS_PER_ACCOUNT: z.coerce
    .number()
    .int('must be a whole number of exports, at least 1')
    .min(1, 'must be a whole number of exports, at least 1')
    .default(DEFAULT_EXPORT_LIMITS.perAccount),
  /** An export whose reader takes fewer KiB than this in EXPORT_SLOW_READER_SECONDS is ended. */
  EXPORT_SLOW_READER_KIB: z.coerce
    .number()
    .int('must be a whole number of KiB, at least 1')
    .min(1, 'must be a whole number of KiB, at least 1')
    .default(DEFAULT_EXPORT_LIMITS.slowBytes / 1024),
  EXPORT_SLOW_READER_SECONDS: z.coerce
    .number()
    .int('must be a whole number of seconds from 1 to 3600')
    .min(1, 'must be a whole number of seconds from 1 to 3600')
    .max(3_600, 'must be a whole number of seconds from 1 to 3600')
    .default(DEFAULT_EXPORT_LIMITS.slowMs / 1000),
  /** The largest import file POST /links/import takes, in bytes; larger is 413 (docs/import-export.md). */
  IMPORT_MAX_BYTES: z.coerce
    .number()
    .int('must be a whole number of bytes from 1024 to 268435456 (256 MiB)')
    .min(1024, 'must be a whole number of bytes from 1024 to 268435456 (256 MiB)')
    .max(256 * 1024 * 1024, 'must be a whole number of bytes from 1024 to 268435456 (256 MiB)')
    .default(DEFAULT_IMPORT_MAX_BYTES),
});

/** The validated settings of a server process. */
export interface Config {
  port: number;
  host: string;
  /** The metrics listener's port on `host`; undefined: no metrics. */
  metricsPort: number | undefined;
  databaseUrl: string | undefined;
  /** The bound on each database statement and on the wait for a pooled connection, in ms; 0: none. */
  databaseQueryTimeoutMs: number;
  dataDir: string;
  shortDomain: string;
  logLevel: (typeof LOG_LEVELS)[number];
  denylist: string[];
  clickFlushMs: number;
  clickBufferMax: number;
  /** Lower-cased header name, or undefined. */
  clickCountryHeader: string | undefined;
  clickRetentionDays: number;
  reputation: RemoteReputationSettings;
  redirectRateLimit: number;
  redirectStaleIfErrorMs: number;
  /** API requests per minute per key, by plan; 0: no limit. */
  apiRateLimits: Record<Plan, number>;
  trustProxy: boolean | number | string[] | undefined;
  /** Where the API's rate-limit counters are shared; undefined: each process counts alone. */
  redisUrl: string | undefined;
  connectionLimits: Pick<ConnectionLimits, 'requestMs' | 'idleMs' | 'maxConnections'>;
  exportLimits: ExportLimits;
  /** The largest import file the API takes, in bytes. */
  importMaxBytes: number;
  /** DNS servers for domain verification; undefined: the system's. */
  dnsServers: string[] | undefined;
  domainCheckIntervalMs: number;
}

/** Every environment problem, one line each; empty when the environment is valid. */
export function readConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): { config?: Config; problems: string[] } {
  const blankAsUnset = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = EnvSchema.safeParse(blankAsUnset);
  if (!parsed.success) {
    return { problems: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) };
  }
  const value = parsed.data;
  if (value.REPUTATION_PROVIDER !== 'none' && !value.REPUTATION_API_KEY) {
    return { problems: [`REPUTATION_API_KEY: is required when REPUTATION_PROVIDER is ${value.REPUTATION_PROVIDER}`] };
  }
  if (value.METRICS_PORT !== undefined && value.METRICS_PORT !== 0 && value.METRICS_PORT === value.PORT) {
    return { problems: [`METRICS_PORT: must differ from PORT (${value.PORT})`] };
  }
  // An idle connection is one whose request has arrived and whose answer has not started: it must
  // outlast a request still arriving, and the slowest answer: a bulk call waiting on its items' URL
  // checks, BULK_URL_CHECK_ROUNDS checks' time at most (bulk-url-checks.ts).
  const checksWait = BULK_URL_CHECK_ROUNDS * value.REPUTATION_TIMEOUT_MS;
  if (value.CONNECTION_IDLE_TIMEOUT_MS <= Math.max(value.REQUEST_TIMEOUT_MS, checksWait)) {
    const longest =
      value.REQUEST_TIMEOUT_MS >= checksWait
        ? `REQUEST_TIMEOUT_MS (${value.REQUEST_TIMEOUT_MS})`
        : `${BULK_URL_CHECK_ROUNDS} × REPUTATION_TIMEOUT_MS (${checksWait}), the longest a bulk call waits on its URL checks`;
    return { problems: [`CONNECTION_IDLE_TIMEOUT_MS: must be longer than ${longest}`] };
  }
  return {
    problems: [],
    config: {
      port: value.PORT,
      host: value.HOST,
      metricsPort: value.METRICS_PORT,
      databaseUrl: value.DATABASE_URL,
      databaseQueryTimeoutMs: value.DATABASE_QUERY_TIMEOUT_MS,
      dataDir: path.resolve(cwd, value.DATA_DIR),
      shortDomain: (value.SHORT_DOMAIN ?? `http://localhost:${value.PORT}`).replace(/\/+$/, ''),
      logLevel: value.LOG_LEVEL,
      clickFlushMs: value.CLICK_FLUSH_MS,
      clickBufferMax: value.CLICK_BUFFER_MAX,
      clickCountryHeader: value.CLICK_COUNTRY_HEADER?.toLowerCase(),
      clickRetentionDays: value.CLICK_RETENTION_DAYS,
      denylist: value.URL_DENYLIST.split(',')
        .map((domain) => domain.trim())
        .filter(Boolean),
      reputation: {
        provider: value.REPUTATION_PROVIDER,
        apiKey: value.REPUTATION_API_KEY,
        baseUrl: value.REPUTATION_BASE_URL,
        timeoutMs: value.REPUTATION_TIMEOUT_MS,
        cleanCacheMs: value.REPUTATION_CACHE_SECONDS * 1000,
        policy: value.REPUTATION_FAILURE_POLICY,
      },
      redirectRateLimit: value.REDIRECT_RATE_LIMIT,
      redirectStaleIfErrorMs: value.REDIRECT_STALE_IF_ERROR_SECONDS * 1000,
      apiRateLimits: {
        starter: value.API_RATE_LIMIT_STARTER,
        trial: value.API_RATE_LIMIT_TRIAL,
        team: value.API_RATE_LIMIT_TEAM,
        unlimited: value.API_RATE_LIMIT_UNLIMITED,
      },
      trustProxy: trustProxy(value.TRUST_PROXY),
      redisUrl: value.REDIS_URL,
      connectionLimits: {
        requestMs: value.REQUEST_TIMEOUT_MS,
        idleMs: value.CONNECTION_IDLE_TIMEOUT_MS,
        maxConnections: value.MAX_CONNECTIONS,
      },
      exportLimits: {
        perAccount: value.EXPORTS_PER_ACCOUNT,
        slowBytes: value.EXPORT_SLOW_READER_KIB * 1024,
        slowMs: value.EXPORT_SLOW_READER_SECONDS * 1000,
      },
      importMaxBytes: value.IMPORT_MAX_BYTES,
      dnsServers: value.DNS_SERVERS,
      domainCheckIntervalMs: value.DOMAIN_CHECK_INTERVAL_MINUTES * 60_000,
    },
  };
}

/** TRUST_PROXY as Fastify takes it: unset (no proxy), `true`/`false`, a hop count, or proxy addresses. */
function trustProxy(value: string | undefined): boolean | number | string[] | undefined {
  if (value === undefined) return undefined;
  if (value === 'true' || value === 'false') return value === 'true';
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean);
}
