import { randomBytes } from 'node:crypto';
import { type AccountView, createServices, LocalDenylist, type NewAccount, type Services, type UrlReputation } from '@shortlinks/api';
import { createOrm, type Orm } from '@shortlinks/db';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { buildServer } from '../src/build-server.ts';
import type { ConnectionLimits } from '../src/connection-limits.ts';
import type { RateLimitSettings } from '../src/rate-limits.ts';

/**
 * A fresh database of its own (a copy of the migrated template), for one test file, owned by and
 * reached as the application's role, as in production.
 */
export async function createTestDatabase(): Promise<string> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const url = new URL(inject('appDatabaseUrl'));
  const owner = pg.escapeIdentifier(decodeURIComponent(url.username));
  const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${inject('templateDatabase')} owner ${owner}`);
  } finally {
    await admin.end();
  }
  url.pathname = `/${name}`;
  return url.href;
}

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

export interface TestServerOptions {
  shortDomain?: string;
  denylist?: string[];
  databaseUrl?: string;
  /** Click flush interval; tests that count clicks call `services.clicks.flush()` themselves. */
  clickFlushMs?: number;
  /** Trusted proxy header with the visitor's country, e.g. `cf-ipcountry`. */
  countryHeader?: string;
  /** Rate limits; by default far above what any test sends (rate-limit tests set their own). */
  rateLimits?: Partial<RateLimitSettings>;
  /** Remote reputation or other sources asked after the stored denylist, instead of the default domain list. */
  reputation?: UrlReputation;
  logLevel?: string;
  logStream?: { write(line: string): void };
  trustProxy?: boolean;
  /** Request timeouts and connection cap; by default the production ones. */
  connectionLimits?: Partial<ConnectionLimits>;
}

const UNREACHED = 1_000_000;
/** Limits no ordinary test reaches, so only the rate-limit tests see 429s. */
export const GENEROUS_RATE_LIMITS: RateLimitSettings = {
  apiPerPlan: { starter: UNREACHED, trial: UNREACHED, team: UNREACHED, unlimited: UNREACHED },
  anonymous: UNREACHED,
  redirects: UNREACHED,
  windowMs: 60_000,
};

/** The real server on its own database, listening on a random loopback port. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
  const orm = await createOrm({ databaseUrl, poolSize: 10 });
  const shortDomain = options.shortDomain ?? 'https://sho.rt';
  const services = createServices({
    orm,
    shortDomain,
    reputation: options.reputation ?? new LocalDenylist(options.denylist ?? ['flagged.example']),
    clicks: { flushIntervalMs: options.clickFlushMs ?? 60_000 },
  });
  const app = await buildServer({
    orm,
    services,
    databaseUrl,
    baseUrl: 'http://127.0.0.1',
    logLevel: options.logLevel ?? 'warn',
    countryHeader: options.countryHeader,
    ...(options.logStream ? { logStream: options.logStream } : {}),
    rateLimits: { ...GENEROUS_RATE_LIMITS, ...options.rateLimits },
    trustProxy: options.trustProxy,
    ...(options.connectionLimits ? { connectionLimits: options.connectionLimits } : {}),
  });
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
}

export interface TestAccount {
  account: AccountView;
  key: string;
  /** fetch() against /api/v1 with this account's key; JSON bodies are serialised. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are asserted field by field
  body: any;
  text: string;
}

/** A new account with its own API key, and a caller for it. */
export async function createAccount(server: TestServer, request: Partial<NewAccount> = {}): Promise<TestAccount> {
  const account = await server.services.accounts.create({ name: 'Test', plan: 'starter', ...request });
  const { secret } = await server.services.apiKeys.create(account.id);
  return { account, key: secret, call: (method, path, body, headers) => callApi(server, secret, method, path, body, headers) };
}

export async function callApi(
  server: TestServer,
  key: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  const init: RequestInit = { method, headers: { ...headers } };
  const requestHeaders = init.headers as Record<string, string>;
  if (key !== undefined) requestHeaders.authorization = `Bearer ${key}`;
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    requestHeaders['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${server.api}${path}`, init);
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** Rows of a table of the test database, for asserting what a request did (or did not) save. */
export async function countRows(
  server: TestServer,
  table: 'link' | 'tag' | 'link_tag' | 'account' | 'api_key',
  where = 'true',
): Promise<number> {
  const rows = await server.orm.em.fork().getConnection().execute(`select count(*)::int as n from ${table} where ${where}`);
  return (rows[0] as { n: number }).n;
}

/** A time comfortably in the future, in Unix ms. */
export const inDays = (days: number) => Date.now() + days * 86_400_000;

let linkCounter = 0;

/** Creates a link (by default with a destination no other call uses) and returns its body; a failure fails the test. */
export async function createLink(account: TestAccount, body: Record<string, unknown> = {}) {
  linkCounter += 1;
  const response = await account.call('POST', '/links', {
    title: 'Link',
    destination_url: `https://example.com/made/${linkCounter}`,
    ...body,
  });
  expect(response.status).toBe(201);
  return response.body;
}

/** GET /links/{id}, which must succeed. */
export async function getLink(account: TestAccount, id: string) {
  const response = await account.call('GET', `/links/${id}`);
  expect(response.status).toBe(200);
  return response.body;
}

/** The names of a link's tags, in the order the API gives them. */
export const tagNames = (link: { tags: { name: string }[] }) => link.tags.map((tag) => tag.name);
