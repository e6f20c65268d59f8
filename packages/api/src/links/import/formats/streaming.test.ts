import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportFormat } from '../import-row.ts';
import { readImportFile, readShortlinksCsv } from './index.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const ROWS = 100_000;
/** Heap a reader may grow by while reading: holding 100,000 rows takes far more (tens of MB). */
const FLAT_HEAP_BYTES = 8 * 1024 * 1024;

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'import-streaming-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function writeLines(name: string, lines: (index: number) => string, header?: string, footer?: string): Promise<string> {
  const path = join(directory, name);
  const out = createWriteStream(path);
  if (header !== undefined) out.write(header);
  for (let index = 0; index < ROWS; index += 1) {
    if (!out.write(lines(index))) await once(out, 'drain');
  }
  if (footer !== undefined) out.write(footer);
  out.end();
  await once(out, 'finish');
  return path;
}

const destination = (index: number) =>
  `https://example.com/articles/${index}/a-fairly-long-path-like-real-ones?utm_source=newsletter&utm_medium=email`;

/**
 * Reads every row, sampling the heap (after a collection) before the first row and every 10,000
 * rows: a reader that held the file's rows, or read it whole before yielding, shows it at once.
 */
async function measure(path: string, format: ImportFormat) {
  const { format: detected, rows } = await readImportFile(path);
  expect(detected).toBe(format);
  gc();
  const before = process.memoryUsage();
  const started = performance.now();
  let count = 0;
  let problems = 0;
  let heapPeak = before.heapUsed;
  let rssPeak = before.rss;
  for await (const row of rows) {
    count += 1;
    if ('problem' in row) problems += 1;
    if (count % 10_000 === 0) {
      gc();
      const now = process.memoryUsage();
      heapPeak = Math.max(heapPeak, now.heapUsed);
      rssPeak = Math.max(rssPeak, now.rss);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const heapGrowth = heapPeak - before.heapUsed;
  console.log(
    JSON.stringify({
      format,
      fileMB: +((await stat(path)).size / 1e6).toFixed(1),
      rows: count,
      rowsPerSecond: Math.round(count / seconds),
      heapGrowthMB: +(heapGrowth / 1e6).toFixed(2),
      rssGrowthMB: +((rssPeak - before.rss) / 1e6).toFixed(2),
    }),
  );
  return { count, problems, heapGrowth };
}

describe('import formats: a 100,000-link file streams with flat memory', () => {
  it('our CSV export', async () => {
    const path = await writeLines(
      'links.csv',
      (index) =>
        `lnk_${index},slug-${index},https://sl.test/slug-${index},${destination(index)},"Title, number ${index}",news|mail,crm-${index},,2027-01-01T00:00:00.000Z,,${index},2026-11-23T05:30:00.000Z\r\n`,
      'id,slug,short_url,destination_url,title,tags,external_id,comments,expires_at,expiration_url,click_count,created_at\r\n',
    );
    const { count, problems, heapGrowth } = await measure(path, 'shortlinks-csv');
    expect({ count, problems }).toEqual({ count: ROWS, problems: 0 });
    expect(heapGrowth).toBeLessThan(FLAT_HEAP_BYTES);
  });

  it('our JSON Lines export', async () => {
    const path = await writeLines(
      'links.jsonl',
      (index) =>
        `${JSON.stringify({ id: `lnk_${index}`, slug: `slug-${index}`, short_url: `https://sl.test/slug-${index}`, destination_url: destination(index), title: `Title ${index}`, tags: ['news', 'mail'], external_id: `crm-${index}`, comments: null, expires_at: null, expiration_url: null, click_count: index, created_at: '2026-11-23T05:30:00.000Z' })}\n`,
    );
    const { count, problems, heapGrowth } = await measure(path, 'shortlinks-jsonl');
    expect({ count, problems }).toEqual({ count: ROWS, problems: 0 });
    expect(heapGrowth).toBeLessThan(FLAT_HEAP_BYTES);
  });

  it('one Kutt JSON document holding every link (a single multi-MB value)', async () => {
    const path = await writeLines(
      'kutt.json',
      (index) =>
        `${index === 0 ? '' : ','}${JSON.stringify({ id: `uuid-${index}`, address: `a${index}`, banned: false, created_at: '2024-03-05T14:22:10.000Z', updated_at: '2024-03-05T14:22:10.000Z', password: false, description: `Link ${index}`, expire_in: null, target: destination(index), visit_count: index, domain: null, link: `https://kutt.it/a${index}` })}`,
      `{"total":${ROWS},"limit":${ROWS},"skip":0,"data":[`,
      ']}',
    );
    const { count, problems, heapGrowth } = await measure(path, 'kutt-json');
    expect({ count, problems }).toEqual({ count: ROWS, problems: 0 });
    expect(heapGrowth).toBeLessThan(FLAT_HEAP_BYTES);
  }, 120_000);
});

/** Readers that look at a file's first line before reading it must still read past the first 64 KiB chunk. */
describe('import formats: a file longer than one read from disk is read to its end', () => {
  const LINKS = 5_000;
  const numbered = (line: (index: number) => string) => Array.from({ length: LINKS }, (_, index) => line(index)).join('\n');

  it.each([
    [
      'Bitly bitlinks one a line',
      'bitlinks.jsonl',
      numbered((index) => JSON.stringify({ link: `https://bit.ly/a${index}`, long_url: destination(index) })),
      'bitly-json',
    ],
    [
      'Shlink’s importer CSV',
      'shlink-import.csv',
      `Long URL,Short code,Domain,Title,Tags\n${numbered((index) => `${destination(index)},a${index},,Title ${index},news|mail`)}`,
      'shlink-import-csv',
    ],
  ] as const)('%s', async (_case, name, text, format) => {
    expect(text.length).toBeGreaterThan(4 * 65_536);
    const path = join(directory, name);
    await writeFile(path, text);
    const { format: detected, rows } = await readImportFile(path);
    expect(detected).toBe(format);
    let count = 0;
    for await (const row of rows) {
      expect(row).toMatchObject({ link: { slug: `a${count}` } });
      count += 1;
    }
    expect(count).toBe(LINKS);
  });
});

describe('import formats: a stray quote stops the file without reading the rest of it', () => {
  it('our CSV export with an unclosed quote on line 3 of 64 MB: MALFORMED_FILE at line 3, after reading under 4 MB', async () => {
    const header = 'id,slug,short_url,destination_url,title,tags,external_id,comments,expires_at,expiration_url,click_count,created_at\r\n';
    const row = (index: number) => `lnk_${index},slug-${index},,${destination(index)},Title ${index},,,,,,0,\r\n`;
    const rows = Array.from({ length: 500 }, (_, index) => row(index)).join('');
    let pulled = 0;
    async function* file() {
      yield `${header}${row(0)}lnk_x,x,,https://example.com/x,"Sale,,,,,,0,\r\n`;
      while (pulled < 64_000_000) {
        pulled += rows.length;
        yield rows;
      }
    }
    const read: unknown[] = [];
    const error = await (async () => {
      for await (const one of readShortlinksCsv(file())) read.push(one);
    })().catch((caught: unknown) => caught);
    expect(read).toHaveLength(1);
    expect(error).toMatchObject({ code: 'MALFORMED_FILE', line: 3, message: expect.stringContaining('unclosed quote') });
    expect(pulled).toBeLessThan(4_000_000);
  }, 60_000);
});
