import type { ImportRow } from '../import-row.ts';
import { csvRecords } from './csv-records.ts';
import { foreignTitle } from './foreign-title.ts';
import { jsonItems } from './json-items.ts';
import { rowsOfCsv, rowsOfJsonItems } from './rows.ts';
import type { TextSource } from './text.ts';
import { cell, jsonText, required, slugOfShortUrl, timestamp } from './values.ts';

/**
 * YOURLS has no export; this reads its API's `action=stats` in JSON (`yourls_get_stats`): `links`
 * is an object keyed `link_1`, `link_2`, … with `shorturl` (the full short URL: the keyword is its
 * path's last segment), `url`, `title`, `timestamp` (`Y-m-d H:i:s`, which YOURLS keeps in UTC),
 * `ip` and `clicks`.
 */
export function readYourlsJson(source: TextSource): AsyncGenerator<ImportRow> {
  return rowsOfJsonItems(jsonItems(source, /^links\.[^.]+$/), (item) => ({
    slug: keywordOfShortUrl(jsonText(item, 'shorturl')),
    destination_url: required(jsonText(item, 'url'), 'url'),
    title: foreignTitle(jsonText(item, 'title')),
    created_at: timestamp(jsonText(item, 'timestamp'), 'timestamp'),
  }));
}

/**
 * A YOURLS installed in a subdirectory gives `https://example.com/yourls/ozh`: the keyword is the
 * last segment, since YOURLS keywords never hold `/` (`yourls_sanitize_keyword` keeps only the
 * short URL charset, `0-9a-z` and optionally `A-Z`). Other tools keep the whole path: Shlink's short
 * codes may hold `/` (multi-segment slugs), where a cut would give two links one slug and the
 * refusal is the honest answer; Bitly's back-halves hold none, so their path is one segment anyway.
 */
function keywordOfShortUrl(shortUrl: string | undefined): string | undefined {
  return slugOfShortUrl(shortUrl, 'shorturl')?.split('/').at(-1);
}

/**
 * The CSV of the YOURLS Import/Export plugin (GautamGupta/YOURLS-Import-Export, `fileio/csv.php`,
 * after WordPress's Redirection plugin): `source,target,hits` with `/keyword/` as the source.
 */
export function readYourlsCsv(source: TextSource): AsyncGenerator<ImportRow> {
  const records = csvRecords(source, { columnName: (name) => name.trim().toLowerCase() });
  return rowsOfCsv(records, (cells) => ({
    slug: cell(cells.source?.trim().replace(/^\/+|\/+$/g, '')),
    destination_url: required(cell(cells.target?.trim()), 'target'),
  }));
}
