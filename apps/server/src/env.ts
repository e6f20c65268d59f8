import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import type { RemoteReputationSettings } from '@shortlinks/api/destinations';
import { parseSmtpUrl } from '@shortlinks/api/mailer';
import { DEFAULT_RATE_LIMITS } from '@shortlinks/api/plans';
import {
  bundledGeoDatabases,
  DEFAULT_CLICK_BUFFER_MAX,
  DEFAULT_CLICK_FLUSH_MS,
  DEFAULT_RETENTION_DAYS,
  DEFAULT_STALE_IF_ERROR_MS,
} from '@shortlinks/api/redirects';
import {
  BULK_URL_CHECK_ROUNDS,
  DEFAULT_AUDIT_RETENTION_DAYS,
  DEFAULT_LOG_DAYS,
  DEFAULT_RETRY_DELAYS,
  type WebhookSettings,
} from '@shortlinks/api/services';
import type { SsoSettings } from '@shortlinks/api/sso';
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
  /**
   * Where people reach the dashboard (e.g. https://links.example.com): the one-time links printed
   * for the first owner and by `user create` / `user reset-password` start with it, and when it is
   * https the session cookie is always Secure (docs/security.md). Unset: http://HOST:PORT.
   */
  PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^/?#\s]+\/?$/, 'must be an origin such as https://links.example.com (scheme and host, no path)')
    .optional(),
  /**
   * The SMTP server that mails invitations (docs/accounts.md, "Invitations"): smtps://user:password@host:465,
   * or smtp://…:587 with STARTTLS required; unset: nothing is mailed, the inviter hands the link over.
   */
  SMTP_URL: z
    .string()
    .optional()
    .superRefine((value, context) => {
      if (value === undefined) return;
      try {
        parseSmtpUrl(value);
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message.replace(/^SMTP_URL:? ?/, '') });
      }
    }),
  /** The From of the mails, such as `Shortlinks <links@example.com>`; required with SMTP_URL. */
  MAIL_FROM: z
    .string()
    .max(320)
    .regex(/^[^\r\n]*@[^\r\n]*$/, 'must be an address such as links@example.com or "Shortlinks <links@example.com>"')
    .optional(),
  /** Single sign-on with OpenID Connect (docs/accounts.md, "Single sign-on"): the provider's issuer URL (https). */
  OIDC_ISSUER: z
    .string()
    .regex(/^https:\/\/\S+$/, "must be the provider's https:// issuer URL, such as https://accounts.example.com")
    .optional(),
  OIDC_CLIENT_ID: z.string().max(500).optional(),
  OIDC_CLIENT_SECRET: z.string().max(2000).optional(),
  /** Comma-separated email domains whose people may sign in with SSO (each exactly; a subdomain is listed itself). */
  OIDC_ALLOWED_DOMAINS: z.string().optional(),
  /** The workspace (account id) that people new through SSO join. */
  OIDC_WORKSPACE: z.string().max(64).optional(),
  /** Their role there. */
  OIDC_ROLE: z.enum(['owner', 'admin', 'member', 'viewer']).default('member'),
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
  /** The IP-to-location MMDB file clicks are placed with (docs/statistics.md); unset: the bundled DB-IP Lite; `none`: no lookup. */
  GEOIP_DATABASE: z.string().optional(),
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
  /** Seconds before each webhook delivery attempt after the one before, comma-separated (docs/webhooks.md). */
  WEBHOOK_RETRY_DELAYS: z
    .string()
    .regex(/^\s*\d+(\s*,\s*\d+){0,19}\s*$/, 'must be 1 to 20 comma-separated whole numbers of seconds, such as 0,5,300')
    .transform((text) => text.split(',').map((seconds) => Number(seconds.trim())))
    .refine((delays) => delays.every((seconds) => seconds <= 7 * 86_400), 'each delay must be at most 604800 seconds (7 days)')
    .default(DEFAULT_RETRY_DELAYS.join(',') as never),
  /** Days webhook delivery records are kept. */
  WEBHOOK_LOG_DAYS: z.coerce
    .number()
    .int('must be a whole number of days from 1 to 3650')
    .min(1, 'must be a whole number of days from 1 to 3650')
    .max(3_650, 'must be a whole number of days from 1 to 3650')
    .default(DEFAULT_LOG_DAYS),
  /** `true` lets webhooks call private and loopback addresses (receivers inside the operator's network). */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
  /** Days audit log entries are kept (docs/accounts.md, "The audit log"). */
  AUDIT_RETENTION_DAYS: z.coerce
    .number({ error: 'must be a whole number of days from 1 to 36500' })
    .int('must be a whole number of days from 1 to 36500')
    .min(1, 'must be a whole number of days from 1 to 36500')
    .max(36_500, 'must be a whole number of days from 1 to 36500')
    .default(DEFAULT_AUDIT_RETENTION_DAYS),
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
  /** Where people reach the server (PUBLIC_URL, or http://HOST:PORT), without a trailing slash. */
  publicUrl: string;
  /** Whether PUBLIC_URL was set (only then does it make the session cookie always Secure). */
  publicUrlSet: boolean;
  /** Single sign-on with OpenID Connect; undefined: none. */
  singleSignOn: SsoSettings | undefined;
  /** Where invitations are mailed from and through; undefined: nothing is mailed. */
  mail: { smtpUrl: string; from: string } | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  denylist: string[];
  clickFlushMs: number;
  clickBufferMax: number;
  /** Lower-cased header name, or undefined. */
  clickCountryHeader: string | undefined;
  clickRetentionDays: number;
  /** The IP-to-location databases (MMDB) clicks are placed with: the bundled pair by default; empty: none. */
  geoipDatabases: string[];
  /** Whether the operator named the database (GEOIP_DATABASE): it is opened at start-up, to stop there if it is unreadable. */
  geoipDatabaseSet: boolean;
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
  webhooks: WebhookSettings;
  /** Days audit log entries are kept. */
  auditRetentionDays: number;
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
  if (value.SMTP_URL !== undefined && value.MAIL_FROM === undefined) {
    return { problems: ['MAIL_FROM: is required when SMTP_URL is set (the From of invitation mails, e.g. links@example.com)'] };
  }
  const oidc = [value.OIDC_ISSUER, value.OIDC_CLIENT_ID, value.OIDC_CLIENT_SECRET, value.OIDC_ALLOWED_DOMAINS, value.OIDC_WORKSPACE];
  const oidcNames = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_ALLOWED_DOMAINS', 'OIDC_WORKSPACE'];
  if (oidc.some((setting) => setting !== undefined) && oidc.some((setting) => setting === undefined)) {
    const missing = oidcNames.filter((_, index) => oidc[index] === undefined);
    return { problems: missing.map((name) => `${name}: is required for single sign-on (every OIDC_* setting but OIDC_ROLE)`) };
  }
  if (value.METRICS_PORT !== undefined && value.METRICS_PORT !== 0 && value.METRICS_PORT === value.PORT) {
    return { problems: [`METRICS_PORT: must differ from PORT (${value.PORT})`] };
  }
  const geoipDatabase =
    value.GEOIP_DATABASE === undefined || value.GEOIP_DATABASE === 'none' ? undefined : path.resolve(cwd, value.GEOIP_DATABASE);
  const geoipProblem = geoipDatabase === undefined ? undefined : unreadableFile(geoipDatabase);
  if (geoipProblem) return { problems: [`GEOIP_DATABASE: ${geoipProblem}`] };
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
      publicUrl: (value.PUBLIC_URL ?? localOrigin(value.HOST, value.PORT)).replace(/\/+$/, ''),
      publicUrlSet: value.PUBLIC_URL !== undefined,
      singleSignOn:
        value.OIDC_ISSUER && value.OIDC_CLIENT_ID && value.OIDC_CLIENT_SECRET && value.OIDC_ALLOWED_DOMAINS && value.OIDC_WORKSPACE
          ? {
              issuer: value.OIDC_ISSUER,
              clientId: value.OIDC_CLIENT_ID,
              clientSecret: value.OIDC_CLIENT_SECRET,
              allowedEmailDomains: value.OIDC_ALLOWED_DOMAINS.split(',')
                .map((domain) => domain.trim())
                .filter(Boolean),
              workspaceId: value.OIDC_WORKSPACE,
              role: value.OIDC_ROLE,
            }
          : undefined,
      mail: value.SMTP_URL && value.MAIL_FROM ? { smtpUrl: value.SMTP_URL, from: value.MAIL_FROM } : undefined,
      logLevel: value.LOG_LEVEL,
      clickFlushMs: value.CLICK_FLUSH_MS,
      clickBufferMax: value.CLICK_BUFFER_MAX,
      clickCountryHeader: value.CLICK_COUNTRY_HEADER?.toLowerCase(),
      clickRetentionDays: value.CLICK_RETENTION_DAYS,
      geoipDatabases: value.GEOIP_DATABASE === 'none' ? [] : geoipDatabase ? [geoipDatabase] : bundledGeoDatabases(),
      geoipDatabaseSet: geoipDatabase !== undefined,
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
      webhooks: {
        retryDelays: value.WEBHOOK_RETRY_DELAYS,
        logDays: value.WEBHOOK_LOG_DAYS,
        allowPrivateTargets: value.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'true',
      },
      auditRetentionDays: value.AUDIT_RETENTION_DAYS,
    },
  };
}

/** Why `file` cannot be read as a database, or undefined when it can. */
function unreadableFile(file: string): string | undefined {
  try {
    if (!statSync(file).isFile()) return `${file} is not a file`;
    accessSync(file, constants.R_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `no such file: ${file}` : `cannot read ${file} (${code ?? (error as Error).message})`;
  }
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

/** The origin of a server listening on `host`:`port`, as a browser on this machine reaches it. */
export function localOrigin(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? 'localhost' : host}:${port}`;
}
