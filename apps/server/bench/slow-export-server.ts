/**
 * Part of `pnpm bench:slow-exports`: a server on DATABASE_URL, listening on a free port, which it
 * prints; stopped by the bench. `BENCH_EXPORTS_PER_ACCOUNT` overrides the concurrent exports per
 * account (to measure what one export holds with the cap out of the way).
 */
import { LocalDenylist } from '@shortlinks/api/destinations';
import { createServices } from '@shortlinks/api/services';
import { createOrm } from '@shortlinks/db';
import { buildServer } from '../src/build-server.ts';

const databaseUrl = process.env.DATABASE_URL ?? '';
const perAccount = process.env.BENCH_EXPORTS_PER_ACCOUNT;
const orm = await createOrm({ databaseUrl, poolSize: 10 });
const services = createServices({ orm, shortDomain: 'https://sho.rt', reputation: new LocalDenylist() });
const app = await buildServer({
  orm,
  services,
  databaseUrl,
  baseUrl: 'http://127.0.0.1',
  // Info: the bench counts the exports ended as too slow in the log.
  logLevel: 'info',
  ...(perAccount ? { exportLimits: { perAccount: Number(perAccount) } } : {}),
});
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`port ${(app.server.address() as { port: number }).port}`);
