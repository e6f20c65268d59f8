import path from 'node:path';
import { LocalDenylist, ReputationChain, remoteReputation } from '@shortlinks/api/destinations';
import { createMailer } from '@shortlinks/api/mailer';
import { GeoLookup } from '@shortlinks/api/redirects';
import { createServices } from '@shortlinks/api/services';
import { ensureFirstAccount, firstOwnerLink } from './bootstrap.ts';
import { buildServer } from './build-server.ts';
import { ensureDashboardBuilt } from './dashboard/build-on-start.ts';
import { openDatabase } from './database.ts';
import { localOrigin, readConfig } from './env.ts';

/** How long handing an invitation mail to SMTP_URL may take before the inviter is told it failed (the link still works). */
const MAIL_TIMEOUT_MS = 10_000;

/** The exit code when the embedded database died and could not be restarted (EX_UNAVAILABLE). */
const EXIT_DATABASE_LOST = 69;

/** `pnpm start`: read the environment, open the database, listen, and shut down cleanly on a signal. */
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const { config, problems } = readConfig(process.env, repoRoot);
if (!config) {
  for (const problem of problems) console.error(`config: ${problem}`);
  process.exit(1);
}
// A database the operator named is opened now, so a file that is not one stops the start here;
// the bundled one is opened by the first click that needs it (docs/statistics.md).
const geo = new GeoLookup(config.geoipDatabases);
if (config.geoipDatabaseSet) {
  await geo.load().catch((error: unknown) => {
    console.error(`config: GEOIP_DATABASE: ${config.geoipDatabases[0]} is not a readable MMDB file (${(error as Error).message})`);
    process.exit(1);
  });
}

// The web dashboard is built (when missing or stale) while the database starts.
const dashboard = ensureDashboardBuilt();
// Warnings of an unavailable reputation service, of the click recorder (clicks dropped, writes
// failing) and of the embedded database's supervisor go to the server's log once it exists.
let warn = (message: string) => console.warn(message);
const database = await openDatabase(
  config,
  (line) => {
    if (config.logLevel === 'debug' || config.logLevel === 'trace') console.error(`[postgres] ${line}`);
  },
  {
    supervise: {
      log: (line) => warn(line),
      // Restarting in place failed for a minute: exit non-zero, so that a supervisor (systemd,
      // Docker's restart policy) starts the server and its database afresh (docs/operations.md).
      gaveUp: (error) => {
        console.error(`${error.message}; exiting`);
        process.exit(EXIT_DATABASE_LOST);
      },
    },
  },
);
const remote = remoteReputation(config.reputation, (message) => warn(message));
const services = createServices({
  orm: database.orm,
  shortDomain: config.shortDomain,
  reputation: new ReputationChain([new LocalDenylist(config.denylist), ...(remote ? [remote] : [])]),
  clicks: {
    flushIntervalMs: config.clickFlushMs,
    maxBuffered: config.clickBufferMax,
    retentionDays: config.clickRetentionDays,
    geo,
    log: (message) => warn(message),
  },
  redirectStaleIfErrorMs: config.redirectStaleIfErrorMs,
  importMaxBytes: config.importMaxBytes,
  dnsServers: config.dnsServers,
  domainCheckIntervalMs: config.domainCheckIntervalMs,
  dashboardUrl: `${config.publicUrl}/app`,
  mailer: config.mail && createMailer({ ...config.mail, timeoutMs: MAIL_TIMEOUT_MS }),
  webhooks: config.webhooks,
  auditRetentionDays: config.auditRetentionDays,
});
reportDashboardBuild(await dashboard);
const baseUrl = localOrigin(config.host, config.port);
const app = await buildServer({
  orm: database.orm,
  services,
  databaseUrl: database.url,
  baseUrl,
  publicUrl: config.publicUrlSet ? config.publicUrl : undefined,
  singleSignOn: config.singleSignOn,
  logLevel: config.logLevel,
  countryHeader: config.clickCountryHeader,
  rateLimits: { redirects: config.redirectRateLimit, apiPerPlan: config.apiRateLimits },
  trustProxy: config.trustProxy,
  redisUrl: config.redisUrl,
  connectionLimits: config.connectionLimits,
  exportLimits: config.exportLimits,
  metrics: config.metricsPort === undefined ? undefined : { port: config.metricsPort, host: config.host },
});
warn = (message) => app.log.warn(message);

let stopping = false;
/** Stop taking requests, let those in flight finish, then stop the database. */
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'shutting down');
  let code = 0;
  try {
    await app.close();
  } catch (error) {
    // E.g. the database went away first: the last buffered clicks could not be written. The
    // database is still stopped, and the exit code says something was lost.
    app.log.error({ err: error }, 'shutdown did not complete cleanly');
    code = 1;
  }
  await database.close().catch((error: unknown) => app.log.error({ err: error }, 'could not stop the database'));
  process.exit(code);
}
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));

try {
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  const message = (error as Error).message;
  // The metrics listener says which address it could not have.
  console.error(message.startsWith('metrics:') ? message : `could not listen on ${config.host}:${config.port}: ${message}`);
  await database.close();
  process.exit(1);
}

const first = await ensureFirstAccount(services);
// Until someone has signed up, every start prints a new one-time link that makes the first owner.
const ownerLink = await firstOwnerLink(services, `${config.publicUrl}/app`);
const where = database.embedded ? `embedded PostgreSQL in ${config.dataDir}` : 'DATABASE_URL';
console.log(`\nShortlinks is running at ${baseUrl} (database: ${where})`);
console.log(`  Dashboard:    ${baseUrl}/app`);
console.log(`  REST API:     ${baseUrl}/api/v1`);
console.log(`  API docs:     ${baseUrl}/docs`);
console.log(`  tRPC:         ${baseUrl}/trpc`);
console.log(`  Short links:  ${config.shortDomain}/<slug>`);
if (app.metricsUrl) console.log(`  Metrics:      ${app.metricsUrl}`);
if (first) {
  console.log('\nA default account was created. Its API key is shown only this once:\n');
  console.log(`  ${first.secret}\n`);
  console.log('  Call the API with it (or paste it into the dashboard):\n');
  console.log(`  curl -H "Authorization: Bearer ${first.secret}" ${baseUrl}/api/v1/links\n`);
  console.log('  It holds every scope. Give programs narrower keys: POST /api/v1/keys with "scopes",');
  console.log('  or `npm run -s shortlinks -- key create --account ACCOUNT_ID --scopes links.read,analytics.read`.\n');
}
if (ownerLink) {
  console.log(`Nobody can sign in to the dashboard yet. Create the owner of "${ownerLink.workspace}" (once, within 7 days) at:\n`);
  console.log(`  ${ownerLink.url}\n`);
}

function reportDashboardBuild(build: Awaited<typeof dashboard>) {
  if (build.state === 'fresh') console.log(`dashboard: up to date (checked in ${build.ms} ms)`);
  if (build.state === 'built') console.log(`dashboard: built in ${(build.ms / 1000).toFixed(1)} s`);
  if (build.state === 'failed') console.error(`dashboard: the build failed, /app will say so (${build.problem})`);
}
