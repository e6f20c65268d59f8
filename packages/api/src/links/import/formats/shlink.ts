import type { ImportRow } from '../import-row.ts';
import { csvRecords } from './csv-records.ts';
import { foreignTitle } from './foreign-title.ts';
import { rowsOfCsv } from './rows.ts';
import type { TextSource } from './text.ts';
import { cell, hostOfShortUrl, required, slugOfShortUrl, splitTags, timestamp } from './values.ts';

/**
 * Shlink's web-client export (shlink-web-component, `ExportShortUrlsBtn` → json2csv):
 * `"createdAt","domain","shortCode","shortUrl","longUrl","title","tags","visits"`, and its older
 * six-column form without `domain` and `shortCode` (shlink-web-client until April 2023), where the
 * slug is the short URL's path. `createdAt` is Shlink's ATOM time (`2024-03-05T14:22:10+00:00`).
 * The visit count stays behind; the domain is kept when the workspace has verified it (docs/domains.md).
 */
export function readShlinkCsv(source: TextSource): AsyncGenerator<ImportRow> {
  const records = csvRecords(source, { columnName: (name) => name.trim().toLowerCase() });
  return rowsOfCsv(records, (cells) => ({
    slug: cell(cells.shortcode) ?? slugOfShortUrl(cell(cells.shorturl), 'shortUrl'),
    destination_url: required(cell(cells.longurl), 'longUrl'),
    title: foreignTitle(cell(cells.title)),
    // The eight-column export joins tags with `|`; the six-column one joined them with `,`
    // (shlink-web-client's ExportShortUrlsBtn, `shortUrl.tags.join(',')`).
    tag_names: splitTags(cells.tags, 'shortcode' in cells ? '|' : ','),
    created_at: timestamp(cell(cells.createdat), 'createdAt'),
    domain: cell(cells.domain) ?? hostOfShortUrl(cell(cells.shorturl)),
  }));
}

/**
 * The CSV Shlink's own importer reads (shlink-importer, `CsvImporter`): header names in any case
 * and spacing (`Long URL`, `Short code`, `Domain`, `Title`, `Tags`), `,` or `;` between fields, the
 * short code taken from `Short URL`'s path when there is no `Short code` column, and `Domain` kept
 * as the link's domain (docs/domains.md).
 */
export function readShlinkImportCsv(source: TextSource): AsyncGenerator<ImportRow> {
  const records = csvRecords(source, { columnName: (name) => name.toLowerCase().replaceAll(' ', '') });
  return rowsOfCsv(records, (cells) => ({
    slug: 'shortcode' in cells ? cell(cells.shortcode?.trim()) : slugOfShortUrl(cell(cells.shorturl), 'Short URL'),
    destination_url: required(cell(cells.longurl), 'Long URL'),
    title: foreignTitle(cell(cells.title)),
    // CsvImporter splits on `|` only (its TAG_SEPARATOR): a `,` belongs to the tag's name.
    tag_names: splitTags(cells.tags, '|'),
    // Empty on Shlink's default domain, so such a row goes to the workspace's default.
    domain: cell(cells.domain?.trim()),
  }));
}
