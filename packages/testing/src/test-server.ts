import { LocalDenylist, type UrlReputation } from '@shortlinks/api/destinations';
import type { Mailer } from '@shortlinks/api/mailer';
import type { RateLimitSettings } from '@shortlinks/api/plans';
import { createServices, type Services, type WebhookSettings } from '@shortlinks/api/services';
import { createOrm, type Orm } from '@shortlinks/db';
import type { FastifyInstance } from 'fastify';
import { createTestDatabase } from './test-database.ts';

export interface TestServer {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  /** `${origin}/api/v1` */
  api: string;
  shortDomain: string;
  databaseUrl: string;
  app: FastifyInstance;
  orm: Orm;
  services: Services;
  close(): Promise<void>;
}

/** What the harness itself sets up: the database, the services, and where the server logs. */
export interface HarnessOptions {
  shortDomain?: string;
  denylist?: string[];
  databaseUrl?: string;
  /** Click flush interval; tests that count clicks call `services.clicks.flush()` themselves. */
  clickFlushMs?: number;
  /** How long a link read may be answered from memory (LINK_READ_CACHE_MS by default). */
  linkReadCacheMs?: number;
  /** How long links seen before the database became unreachable keep redirecting. */
  redirectStaleIfErrorMs?: number;
  /** DNS servers for domain verification (`host:port`): a test's own DNS server. */
  dnsServers?: string[];
  /** Distinct click events kept unwritten at most (CLICK_BUFFER_MAX). */
  clickBufferMax?: number;
  /** Clicks written per statement at most while a webhook subscribes to `link.clicked` (tests lower it to see chunks). */
  clickEventsPerChunk?: number;
  /** Remote reputation or other sources asked after the stored denylist, instead of the default domain list. */
  reputation?: UrlReputation;
  logLevel?: string;
  logStream?: { write(line: string): void };
  /** Each rate limit not set here is {@link GENEROUS_RATE_LIMITS}'s. */
  rateLimits?: Partial<RateLimitSettings>;
  /** The dashboard's public address that invitation links start with (PUBLIC_URL + /app). */
  dashboardUrl?: string;
  /** Mails invitations (a mailer on `@shortlinks/testing/smtp-server`'s url); unset: none is mailed. */
  mailer?: Mailer;
  /** Webhook settings (WEBHOOK_RETRY_DELAYS, …); tests that call a loopback receiver allow private targets. */
  webhooks?: Partial<WebhookSettings>;
}

/** What every server builder takes from the harness (apps/server's buildServer takes more). */
export interface HarnessBuildOptions {
  orm: Orm;
  services: Services;
  databaseUrl: string;
  baseUrl: string;
  logLevel?: string;
  logStream?: { write(line: string): void };
  rateLimits?: Partial<RateLimitSettings>;
}

const UNREACHED = 1_000_000;
/** Limits no ordinary test reaches, so only tests that set their own see 429s. */
export const GENEROUS_RATE_LIMITS: RateLimitSettings = {
  apiPerPlan: { starter: UNREACHED, trial: UNREACHED, team: UNREACHED, unlimited: UNREACHED },
  anonymous: UNREACHED,
  redirects: UNREACHED,
  windowMs: 60_000,
};

type ServerBuilder<Options extends HarnessBuildOptions> = (options: Options) => Promise<FastifyInstance>;

/**
 * The real server for tests, on a database of its own, listening on a random loopback port:
 * `testServers(buildServer)` gives the `startTestServer` of that server, whose options are the
 * harness's plus the builder's own (rate limits, proxy trust, …). The builder comes in from the
 * app (apps/server's `buildServer`), so this package depends on no app, and apps depend on it.
 */
export function testServers<Options extends HarnessBuildOptions>(build: ServerBuilder<Options>) {
  return async function startTestServer(
    options: HarnessOptions & Partial<Omit<Options, keyof HarnessBuildOptions | keyof HarnessOptions>> = {},
  ): Promise<TestServer> {
    const {
      shortDomain = 'https://sho.rt',
      denylist,
      clickFlushMs,
      linkReadCacheMs,
      redirectStaleIfErrorMs,
      dnsServers,
      clickBufferMax,
      clickEventsPerChunk,
      reputation,
      logLevel = 'warn',
      logStream,
      rateLimits,
      dashboardUrl,
      mailer,
      webhooks,
      ...serverOptions
    } = options;
    const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
    delete (serverOptions as { databaseUrl?: string }).databaseUrl;
    const orm = await createOrm({ databaseUrl, poolSize: 10 });
    const services = createServices({
      orm,
      shortDomain,
      reputation: reputation ?? new LocalDenylist(denylist ?? ['flagged.example']),
      clicks: {
        flushIntervalMs: clickFlushMs ?? 60_000,
        ...(clickBufferMax === undefined ? {} : { maxBuffered: clickBufferMax }),
        ...(clickEventsPerChunk === undefined ? {} : { clickEventsPerChunk }),
      },
      ...(linkReadCacheMs === undefined ? {} : { linkReadCacheMs }),
      ...(redirectStaleIfErrorMs === undefined ? {} : { redirectStaleIfErrorMs }),
      ...(dnsServers === undefined ? {} : { dnsServers }),
      ...(dashboardUrl === undefined ? {} : { dashboardUrl }),
      mailer,
      ...(webhooks === undefined ? {} : { webhooks }),
    });
    const app = await build({
      ...definedOnly(serverOptions),
      orm,
      services,
      databaseUrl,
      baseUrl: 'http://127.0.0.1',
      logLevel,
      rateLimits: { ...GENEROUS_RATE_LIMITS, ...rateLimits },
      ...(logStream ? { logStream } : {}),
    } as Options);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('server has no port');
    const origin = `http://127.0.0.1:${address.port}`;
    return {
      origin,
      api: `${origin}/api/v1`,
      shortDomain,
      databaseUrl,
      app,
      orm,
      services,
      close: async () => {
        await app.close();
        await orm.close();
      },
    };
  };
}

/** The options a test gave, without those it left undefined (which would hide the defaults). */
function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}
