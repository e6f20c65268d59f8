import type { ImportRow } from '../import-row.ts';
import { csvRecords } from './csv-records.ts';
import { foreignTagNames, foreignTitle } from './foreign-title.ts';
import { jsonItems } from './json-items.ts';
import { jsonLines } from './json-lines.ts';
import { rowsOfCsv, rowsOfJsonItems, rowsOfJsonLines } from './rows.ts';
import { readAhead, type TextSource, textChunks } from './text.ts';
import { cell, invalid, jsonText, jsonTextList, refuse, required, slugOfShortUrl, splitTags, timestamp } from './values.ts';

/**
 * Bitly's API v4 `GET /v4/groups/{group_guid}/bitlinks` saved to a file: its `{"links": [...],
 * "pagination": {...}}` pages one after another, or one bitlink object a line. A bitlink's slug is
 * the path of its first custom bitlink, else of `link`; `created_at` is `2024-03-05T14:22:10+0000`.
 * Archived bitlinks still redirect on Bitly, so they are imported like the others.
 */
export async function* readBitlyJson(source: TextSource): AsyncGenerator<ImportRow> {
  const { lineByLine, chunks } = await bitlinksOnePerLine(textChunks(source));
  yield* lineByLine ? rowsOfJsonLines(jsonLines(chunks), bitlink) : rowsOfJsonItems(jsonItems(chunks, /^links\.\d+$/), bitlink);
}

function bitlink(item: Record<string, unknown>) {
  const custom = jsonTextList(item, 'custom_bitlinks')?.[0];
  return {
    slug:
      custom !== undefined
        ? slugOfShortUrl(custom, 'custom_bitlinks')
        : slugOfShortUrl(jsonText(item, 'link') ?? jsonText(item, 'id'), 'link'),
    destination_url: required(jsonText(item, 'long_url'), 'long_url'),
    title: foreignTitle(jsonText(item, 'title')),
    tag_names: foreignTagNames(jsonTextList(item, 'tags')),
    created_at: timestamp(jsonText(item, 'created_at'), 'created_at'),
    expires_at: timestamp(jsonText(item, 'expiration_at'), 'expiration_at'),
  };
}

/**
 * Pages or one bitlink a line, from the first line: a page (`{"links": ...}` whole on the line, or
 * a pretty-printed page's opening `{`, or a line too long for a bitlink) means pages; anything else
 * is read line by line, so a bad first line is reported as that row rather than hiding the rest.
 */
async function bitlinksOnePerLine(chunks: AsyncGenerator<string>): Promise<{ lineByLine: boolean; chunks: AsyncGenerator<string> }> {
  const ahead = await readAhead(chunks, (text) => /\S[^\n]*\n/.test(text) || text.length > 1_048_576);
  const start = ahead.head.search(/\S/);
  const end = start < 0 ? -1 : ahead.head.indexOf('\n', start);
  let firstLine: string | undefined;
  if (end >= 0) firstLine = ahead.head.slice(start, end).trim();
  else if (ahead.head.length <= 1_048_576) firstLine = ahead.head.trim();
  return { lineByLine: firstLine !== undefined && !isPageStart(firstLine), chunks: ahead.chunks };
}

function isPageStart(line: string): boolean {
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === 'object' && value !== null && 'links' in value;
  } catch {
    return /^\{\s*("links"\s*:.*)?$/.test(line);
  }
}

/** The names Bitly's web app and hand-made files give each column (matched ignoring case, `_` and spaces). */
const BITLY_COLUMNS = {
  destination: ['long url', 'destination url', 'destination', 'original url'],
  custom: ['custom link', 'custom bitlink', 'custom bitlinks', 'custom short link'],
  bitlink: ['bitlink', 'short link', 'short url', 'link'],
  title: ['title'],
  tags: ['tags', 'tag'],
  created: ['created', 'created at', 'date created', 'creation date'],
} as const;

/**
 * A Bitly CSV, whatever its exact headers (Bitly's web-app export could not be checked): columns are
 * found by the names above; the slug is the custom link's path, else the bitlink's.
 */
export function readBitlyCsv(source: TextSource): AsyncGenerator<ImportRow> {
  const records = csvRecords(source, { columnName: bitlyColumnName });
  return rowsOfCsv(records, (cells) => {
    const value = (column: keyof typeof BITLY_COLUMNS) => {
      for (const name of BITLY_COLUMNS[column]) {
        const found = cell(cells[name]?.trim());
        if (found !== undefined) return found;
      }
      return undefined;
    };
    const destination = value('destination');
    if (destination === undefined) refuse(invalid('long url', 'the long URL (destination) is missing'));
    const custom = value('custom');
    return {
      slug: custom !== undefined ? slugOfShortUrl(custom, 'custom link') : slugOfShortUrl(value('bitlink'), 'bitlink'),
      destination_url: required(destination, 'long url'),
      title: foreignTitle(value('title')),
      tag_names: bitlyTags(value('tags')),
      created_at: timestamp(value('created'), 'created'),
    };
  });
}

/**
 * Bitly's CSV tag separator could not be checked: `,` when the cell holds one (as a hand-made file
 * or a spreadsheet would list them), else `|`.
 */
function bitlyTags(value: string | undefined): string[] | undefined {
  return splitTags(value, value?.includes(',') ? ',' : '|');
}

export function bitlyColumnName(header: string): string {
  return header.trim().toLowerCase().replaceAll('_', ' ').replace(/\s+/g, ' ');
}

export const BITLY_DESTINATION_COLUMNS: readonly string[] = BITLY_COLUMNS.destination;

/**
 * Bitly's column names that Shlink's importer CSV never has (it reads `Long URL`, `Short code`,
 * `Domain`, `Title`, `Tags`): a header with one of them is Bitly's, whatever else it holds.
 */
export const BITLY_ONLY_COLUMNS: readonly string[] = Object.values(BITLY_COLUMNS)
  .flat()
  .filter((name) => !['long url', 'title', 'tags'].includes(name));
