import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServices, LocalDenylist } from '@shortlinks/api';
import { createOrm, type Database, migrate } from '@shortlinks/db';
import { startEmbeddedPostgres } from '@shortlinks/db/embedded';

const dataDir = await mkdtemp(path.join(tmpdir(), 'sl-probe-'));
const cluster = await startEmbeddedPostgres({ dataDir });
const orm = await createOrm({ databaseUrl: cluster.url, poolSize: 20 });
await migrate(orm);
const services = createServices({ orm, shortDomain: 'https://sho.rt', reputation: new LocalDenylist() });
const account = await services.accounts.create({ name: 'Bench', plan: 'unlimited' });
const { secret } = await services.apiKeys.create(account.id);
const link = await services.links.create(account.id, { title: 'x', destination_url: 'https://example.com/', tag_names: ['a'] });
async function time(name: string, n: number, conc: number, fn: () => Promise<unknown>) {
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: conc }, async () => {
      for (let i = 0; i < n / conc; i++) await fn();
    }),
  );
  console.log(name, 'conc', conc, ((performance.now() - t0) / n).toFixed(3), 'ms/op');
}
for (const conc of [1, 20]) {
  await time('auth', 1000, conc, () => services.apiKeys.authenticate(secret));
  await time('links.get', 1000, conc, () => services.links.get(account.id, link.id));
  await time('raw kysely plain', 1000, conc, () =>
    orm.em.fork().getKysely<Database>().selectFrom('link').select('id').where('id', '=', link.id).executeTakeFirst(),
  );
  await time('raw kysely convert', 1000, conc, () =>
    orm.em.fork().getKysely<Database>({ convertValues: true }).selectFrom('link').select('id').where('id', '=', link.id).executeTakeFirst(),
  );
}
await orm.close();
await cluster.stop();
