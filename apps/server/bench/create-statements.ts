/**
 * `pnpm bench:create-statements`: the SQL statements one `POST /api/v1/links` sends, counted on the
 * server's side, for the API (REST and tRPC) and for bench:api's hand-written route. Deterministic,
 * unlike req/s: every statement is one round trip to PostgreSQL, and the ones inside the
 * transaction are made while the account's row is locked, so they bound how many creates of one
 * account a second can commit. Printed per create, each statement's first words, after a warm-up
 * (the caller then comes from the caller cache, as it does under load).
 *
 * BENCH_WEBHOOK=1 subscribes a `link.created` webhook to the creating account first (its receiver
 * is not started: deliveries are only queued).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocalDenylist } from '@shortlinks/api/destinations';
import { createServices } from '@shortlinks/api/services';
import { createOrm, migrate } from '@shortlinks/db';
import { startEmbeddedPostgres } from '@shortlinks/db/embedded';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildServer } from '../src/build-server.ts';
import { handwrittenServer } from './handwritten.ts';

const SHORT_DOMAIN = 'https://sho.rt';

/** Every statement any `pg` client of this process sends, while `recording`. */
let recording: string[] | undefined;
const query = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]): unknown {
  const text = typeof config === 'string' ? config : ((config as { text?: string } | null)?.text ?? '');
  recording?.push(text.replace(/\s+/g, ' ').trim());
  return query.call(this, config, ...rest);
} as typeof pg.Client.prototype.query;

const dataDir = await mkdtemp(path.join(tmpdir(), 'shortlinks-statements-'));
const cluster = await startEmbeddedPostgres({ dataDir });
const orm = await createOrm({ databaseUrl: cluster.url, poolSize: 10 });
await migrate(orm);
const services = createServices({ orm, shortDomain: SHORT_DOMAIN, reputation: new LocalDenylist() });
const account = await services.accounts.create({ name: 'Statements', plan: 'unlimited' });
const key = (await services.apiKeys.create(account.id)).secret;
if (process.env.BENCH_WEBHOOK === '1') {
  await services.webhooks.create(account.id, { url: 'https://hooks.example.com/in', events: ['link.created'] });
}
const app = await buildServer({
  orm,
  services,
  databaseUrl: cluster.url,
  baseUrl: 'http://127.0.0.1',
  logLevel: process.env.BENCH_LOG_LEVEL ?? 'silent',
});
const handwritten = await handwrittenServer(cluster.url, SHORT_DOMAIN, 10);
const servers: FastifyInstance[] = [app, handwritten];
for (const server of servers) await server.listen({ port: 0, host: '127.0.0.1' });
const origin = (server: FastifyInstance) => `http://127.0.0.1:${(server.server.address() as { port: number }).port}`;

const body = JSON.stringify({ destination_url: 'https://example.com/created/by/the/bench?ref=bench', title: 'Created by the bench' });
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
const routes = {
  rest: `${origin(app)}/api/v1/links`,
  trpc: `${origin(app)}/trpc/links.create`,
  handwritten: `${origin(handwritten)}/api/v1/links`,
};

/** The statements of one create, once the route is warm. */
async function statementsOf(url: string): Promise<string[]> {
  for (let i = 0; i < 3; i++) await fetch(url, { method: 'POST', headers, body });
  recording = [];
  const response = await fetch(url, { method: 'POST', headers, body });
  if (response.status !== 201 && response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  // What the request started after its answer (a caller's last_used_at, an announcement) has begun by now.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const sent = recording;
  recording = undefined;
  return sent;
}

for (const [name, url] of Object.entries(routes)) {
  const sent = await statementsOf(url);
  const begin = sent.findIndex((text) => /^begin/i.test(text));
  const end = sent.findIndex((text) => /^(commit|rollback)/i.test(text));
  const inside = begin === -1 ? 0 : end - begin - 1;
  console.log(`\n${name}: ${sent.length} statements, ${inside} inside the transaction (begin and commit apart)`);
  for (const [i, text] of sent.entries()) {
    const mark = begin !== -1 && i > begin && i < end ? '  | ' : '    ';
    console.log(`${mark}${text.slice(0, 150)}`);
  }
}

for (const server of servers) await server.close();
await orm.close();
await cluster.stop();
await rm(dataDir, { recursive: true, force: true });
