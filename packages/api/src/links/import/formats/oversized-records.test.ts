import { describe, expect, it } from 'vitest';
import { ImportFileError, readKuttJson, readShortlinksJsonl, readYourlsJson } from './index.ts';
import { MAX_RECORD_BYTES } from './record-size.ts';
import { collect } from './test-support.ts';

const link = (slug: string) => JSON.stringify({ slug, destination_url: `https://example.com/${slug}` });

/** Reads rows until the file stops, giving the rows read and the error that stopped it. */
async function readUntilStopped(rows: AsyncIterable<{ row: number }>) {
  const read: number[] = [];
  try {
    for await (const row of rows) read.push(row.row);
  } catch (error) {
    return { read, error };
  }
  return { read, error: undefined };
}

/** `bytes` of `text` repeated, in chunks of 64 KiB as a file is read, without ever holding it whole. */
async function* repeated(text: string, bytes: number): AsyncGenerator<string> {
  const chunk = text.repeat(Math.ceil(65_536 / text.length));
  for (let sent = 0; sent < bytes; sent += chunk.length) yield chunk;
}

/** A text in chunks of 64 KiB, as a file is read from disk. */
const inChunks = (text: string) =>
  Array.from({ length: Math.ceil(text.length / 65_536) }, (_, i) => text.slice(i * 65_536, (i + 1) * 65_536));

describe('import formats: a record longer than MAX_RECORD_BYTES stops the file as MALFORMED_FILE', () => {
  it('JSON Lines: a line past the cap stops the file at that line, the lines before it read', async () => {
    const long = JSON.stringify({ slug: 'long', destination_url: 'https://example.com/', comments: 'x'.repeat(MAX_RECORD_BYTES) });
    const { read, error } = await readUntilStopped(readShortlinksJsonl(`${link('a')}\n${link('b')}\r\n${long}\n${link('c')}\n`));
    expect(read).toEqual([1, 2]);
    expect(error).toBeInstanceOf(ImportFileError);
    expect(error).toMatchObject({ code: 'MALFORMED_FILE', line: 3 });
    expect((error as Error).message).toBe('line 3 runs past 256 KiB, which no link does');
  });

  it('JSON Lines: text without a line end (/dev/zero read as JSON Lines) stops once past the cap', async () => {
    async function* zeros() {
      yield* repeated('\0', 64 * 1024 * 1024);
    }
    const { read, error } = await readUntilStopped(readShortlinksJsonl(zeros()));
    expect(read).toEqual([]);
    expect(error).toMatchObject({ code: 'MALFORMED_FILE', line: 1 });
  });

  it('JSON Lines: a line just under the cap is read, and \\r\\n split between two reads ends one line', async () => {
    const padded = JSON.stringify({ slug: 'big', destination_url: 'https://example.com/', comments: '' });
    const big = padded.replace('"comments":""', `"comments":"${'y'.repeat(MAX_RECORD_BYTES - padded.length)}"`);
    expect(Buffer.byteLength(big)).toBe(MAX_RECORD_BYTES);
    const rows = await collect(readShortlinksJsonl([`${link('a')}\r`, `\n${big}\r`, `${link('b')}\n\n`, link('c')]));
    expect(rows.map((row) => [row.row, 'link' in row ? row.link.slug : row.problem.code])).toEqual([
      [1, 'a'],
      [2, 'big'],
      [3, 'b'],
      [5, 'c'],
    ]);
  });

  it('a JSON document: one value past the cap (a 1 MB Kutt description) stops the file', async () => {
    const item = (address: string, description = 'fine') =>
      JSON.stringify({ address, target: `https://example.com/${address}`, description });
    const kutt = `{"total":3,"data":[${item('a')},${item('b', 'd'.repeat(1024 * 1024))},${item('c')}]}`;
    const { read, error } = await readUntilStopped(readKuttJson(inChunks(kutt)));
    // As with JSON that does not parse, items parsed but not yet taken when reading stops are not
    // read; the message says where the file stopped.
    expect(read.length).toBeLessThanOrEqual(1);
    expect(error).toMatchObject({ code: 'MALFORMED_FILE' });
    expect((error as Error).message).toBe(
      `the JSON cannot be read on: a value after item ${read.length} runs past 256 KiB, which no link does`,
    );
  });

  it('a JSON document: an item of many short values past the cap stops the file; a long value outside the items too', async () => {
    const many = `{"data":[{"address":"a","target":"https://example.com/a","tags":[${'"",'.repeat(MAX_RECORD_BYTES)}""]}]}`;
    const { read, error } = await readUntilStopped(readKuttJson(many));
    expect(read).toEqual([]);
    expect((error as Error).message).toBe('the JSON cannot be read on: item 1 runs past 256 KiB, which no link does');

    async function* padding() {
      yield '{"data":[],"junk":"';
      yield* repeated('z', 8 * 1024 * 1024);
      yield '"}';
    }
    expect((await readUntilStopped(readKuttJson(padding()))).error).toMatchObject({ code: 'MALFORMED_FILE' });
  });

  it('a JSON document of ordinary items is read as before, keys and numbers included', async () => {
    const yourls = JSON.stringify({
      links: {
        a: { shorturl: 'https://s.test/a', url: 'https://example.com/a', title: 'A', timestamp: '2024-03-05 14:22:10', clicks: 12 },
      },
    });
    const rows = await collect(readYourlsJson(yourls));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ row: 1, link: { slug: 'a', destination_url: 'https://example.com/a', title: 'A' } });
  });
});

describe('import formats: time zone offsets', () => {
  const jsonl = (created_at: string) => JSON.stringify({ destination_url: 'https://example.com/', created_at });

  it('an offset no zone has (+99:99, +15:00, +01:60) refuses the row; -12:00 to +14:00 are read', async () => {
    const refused = ['2024-03-05T14:22:10+99:99', '2024-03-05T14:22:10+1500', '2024-03-05T14:22:10+01:60', '2024-03-05T14:22:10-99'];
    for (const value of refused) {
      const [row] = await collect(readShortlinksJsonl(jsonl(value)));
      expect(row, value).toMatchObject({ problem: { code: 'VALIDATION_ERROR', field: 'created_at' } });
    }
    const [east] = await collect(readShortlinksJsonl(jsonl('2024-03-05T14:22:10+14:00')));
    expect(east).toMatchObject({ link: { created_at: Date.parse('2024-03-05T00:22:10Z') } });
    const [west] = await collect(readShortlinksJsonl(jsonl('2024-03-05T14:22:10-12:00')));
    expect(west).toMatchObject({ link: { created_at: Date.parse('2024-03-06T02:22:10Z') } });
  });
});
