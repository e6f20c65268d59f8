/**
 * `pnpm bench:export-import`: the export's memory at 1,000,000 links and the import's throughput
 * at 100,000 (issue 14; docs/performance.md).
 *
 * On a fresh embedded PostgreSQL, links are generated in the database (generate_series) with
 * tags, external ids, comments and expiries. Then, each as its own process under
 * `/usr/bin/time -v` (so its peak RSS is the kernel's count):
 *   - `pnpm shortlinks export` of the 1,000,000 links, as CSV and as JSON Lines, to a file;
 *   - GET /api/v1/links/export of the same links from a running server, read to the end;
 *   - `pnpm shortlinks import` of a 100,000-link export into a fresh account (the source's links
 *     deleted first, so their slugs are free, as when moving to another instance), then the same
 *     import again, which changes nothing.
 * Sizes: BENCH_EXPORT_LINKS, BENCH_IMPORT_LINKS; BENCH_EXPORT_FORMATS (default `csv,jsonl`).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocalDenylist } from '@shortlinks/api/destinations';
import { createServices } from '@shortlinks/api/services';
import { createOrm, migrate } from '@shortlinks/db';
import { startEmbeddedPostgres } from '@shortlinks/db/embedded';

const EXPORT_LINKS = Number(process.env.BENCH_EXPORT_LINKS ?? 1_000_000);
const IMPORT_LINKS = Number(process.env.BENCH_IMPORT_LINKS ?? 100_000);
const EXPORT_FORMATS = (process.env.BENCH_EXPORT_FORMATS ?? 'csv,jsonl').split(',');
const serverDir = path.resolve(import.meta.dirname, '..');

const dataDir = await mkdtemp(path.join(tmpdir(), 'shortlinks-bench-transfer-'));
const cluster = await startEmbeddedPostgres({ dataDir });
// This process only seeds (statements of minutes: no statement bound); what is measured runs in
// processes of its own, with the defaults users run.
const orm = await createOrm({ databaseUrl: cluster.url, poolSize: 4, queryTimeoutMs: 0 });
await migrate(orm);
const services = createServices({ orm, shortDomain: 'https://sho.rt', reputation: new LocalDenylist() });
const big = await services.accounts.create({ name: 'Export', plan: 'unlimited' });
const source = await services.accounts.create({ name: 'Import source', plan: 'unlimited' });
const target = await services.accounts.create({ name: 'Import target', plan: 'unlimited' });
const { secret } = await services.apiKeys.create(big.id);
const env = { DATABASE_URL: cluster.url, SHORT_DOMAIN: 'https://sho.rt', PORT: '0' };

try {
  const seeding = Date.now();
  await seed(big.id, 'e', EXPORT_LINKS);
  await seed(source.id, 'i', IMPORT_LINKS);
  console.log(
    `seeded ${EXPORT_LINKS.toLocaleString('en')} + ${IMPORT_LINKS.toLocaleString('en')} links in ${seconds(Date.now() - seeding)} s`,
  );

  for (const format of EXPORT_FORMATS) {
    const file = path.join(dataDir, `export.${format}`);
    const run = await timed(['src/cli/main.ts', 'export', '--account', big.id, '--format', format, '--output', file]);
    const { size } = await stat(file);
    console.log(
      `CLI export ${format.padEnd(5)} ${EXPORT_LINKS.toLocaleString('en')} links: ${seconds(run.ms)} s, ` +
        `${Math.round(EXPORT_LINKS / (run.ms / 1000)).toLocaleString('en')} links/s, ${(size / 2 ** 20).toFixed(0)} MiB, peak RSS ${run.maxRssMiB} MiB`,
    );
  }

  const rest = await timed(['bench/export-over-rest.ts', secret, String(EXPORT_LINKS)]);
  console.log(
    `REST export csv ${EXPORT_LINKS.toLocaleString('en')} links (server and reader in one process): ${seconds(rest.ms)} s, peak RSS ${rest.maxRssMiB} MiB`,
  );

  if (IMPORT_LINKS > 0) {
    const file = path.join(dataDir, 'import.jsonl');
    await timed(['src/cli/main.ts', 'export', '--account', source.id, '--format', 'jsonl', '--output', file]);
    await orm.em.fork().getConnection().execute(`update link set deleted_at = now() where account_id = '${source.id}'`);
    for (const pass of ['first', 'second']) {
      const run = await timed(['src/cli/main.ts', 'import', '--account', target.id, file]);
      console.log(
        `CLI import (${pass} run) ${IMPORT_LINKS.toLocaleString('en')} links: ${seconds(run.ms)} s, ` +
          `${Math.round(IMPORT_LINKS / (run.ms / 1000)).toLocaleString('en')} links/s, peak RSS ${run.maxRssMiB} MiB`,
      );
      console.log(run.stdout.trim().replace(/^/gm, '    '));
    }
    const [{ live }] = (await orm.em
      .fork()
      .getConnection()
      .execute(`select count(*)::int as live from link where account_id = '${target.id}' and deleted_at is null`)) as [{ live: number }];
    if (live !== IMPORT_LINKS) throw new Error(`the import made ${live} links, not ${IMPORT_LINKS}`);
  }
} finally {
  await orm.close();
  await cluster.stop();
  await rm(dataDir, { recursive: true, force: true });
}

/** Links `lnk_<prefix>1…` with slugs `<prefix>1…`: one of 10 tags each, every 3rd an external id, every 5th comments, every 7th an expiry. */
async function seed(accountId: string, prefix: string, links: number): Promise<void> {
  const connection = orm.em.fork().getConnection();
  await connection.execute(
    `insert into tag (id, account_id, name, color)
     select 'tag_${prefix}' || g, '${accountId}', 'Tag ${prefix}' || g, 'indigo' from generate_series(0, 9) g;
     insert into link (id, account_id, slug, destination_url, title, external_id, comments, expires_at, expiration_url, created_at)
     select 'lnk_${prefix}' || g, '${accountId}', '${prefix}' || g, 'https://example.com/articles/' || g || '?utm_source=bench', 'Bench, "link" ' || g,
            case when g % 3 = 0 then 'ext-' || g end, case when g % 5 = 0 then 'a comment, with a comma' end,
            case when g % 7 = 0 then now() + interval '30 days' end, case when g % 14 = 0 then 'https://example.com/gone' end,
            timestamptz '2025-01-01' + g * interval '1 second'
     from generate_series(1, ${links}) g;
     insert into link_tag (link_id, tag_id) select 'lnk_${prefix}' || g, 'tag_${prefix}' || (g % 10) from generate_series(1, ${links}) g;
     analyze link; analyze link_tag;`,
  );
}

/** Runs `node <args>` in apps/server under /usr/bin/time -v: wall time, peak RSS and its output. */
async function timed(args: string[]): Promise<{ ms: number; maxRssMiB: string; stdout: string }> {
  const started = Date.now();
  const child = spawn('/usr/bin/time', ['-v', process.execPath, '--disable-warning=ExperimentalWarning', ...args], {
    cwd: serverDir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  const ms = Date.now() - started;
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}:\n${stderr}`);
  const kib = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1]);
  return { ms, maxRssMiB: (kib / 1024).toFixed(0), stdout };
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}
