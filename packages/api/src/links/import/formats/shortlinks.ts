import { unguardFormula } from '../../export/spreadsheet-formulas.ts';
import type { ImportedLink, ImportRow } from '../import-row.ts';
import { csvRecords } from './csv-records.ts';
import { jsonLines } from './json-lines.ts';
import { rowsOfCsv, rowsOfJsonLines } from './rows.ts';
import type { TextSource } from './text.ts';
import { cell, hostOfShortUrl, invalid, jsonText, jsonTextList, refuse, required, timestamp } from './values.ts';

/**
 * Our own export (docs/import-export.md, "Our own export"): `id, slug, short_url, destination_url,
 * title, tags, external_id, comments, expires_at, expiration_url, click_count, created_at`. The id,
 * short URL and click count belong to the account that exported; the import gives new ones. The
 * CSV's cells are read back from the export's spreadsheet formula guard (`'=…` is `=…`).
 */
export function readShortlinksCsv(source: TextSource): AsyncGenerator<ImportRow> {
  const records = csvRecords(source, { columnName: (name) => name.trim().toLowerCase() });
  return rowsOfCsv(records, (cells) => {
    const text = (key: string) => unguardFormula(cells[key] ?? '');
    return linkOf(
      (key) => cell(text(key)),
      splitEscapedTags(text('tags')),
      (key) => jsonCell(cell(text(key)), key),
    );
  });
}

export function readShortlinksJsonl(source: TextSource): AsyncGenerator<ImportRow> {
  return rowsOfJsonLines(jsonLines(source), (item) =>
    linkOf(
      (key) => jsonText(item, key),
      jsonTextList(item, 'tags'),
      (key) => item[key] ?? undefined,
    ),
  );
}

function linkOf(text: (key: string) => string | undefined, tags: string[] | undefined, json: (key: string) => unknown): ImportedLink {
  return {
    slug: text('slug'),
    destination_url: required(text('destination_url'), 'destination_url'),
    title: text('title'),
    tag_names: tags,
    external_id: text('external_id'),
    comments: text('comments'),
    expires_at: timestamp(text('expires_at'), 'expires_at'),
    expiration_url: text('expiration_url'),
    created_at: timestamp(text('created_at'), 'created_at'),
    // The link's domain is its short URL's host (docs/domains.md).
    domain: hostOfShortUrl(text('short_url')),
    password_hash: text('password_hash'),
    max_clicks: json('max_clicks'),
    rules: json('rules'),
    preview: json('preview'),
  };
}

/** A CSV cell holding JSON (the rules, the preview, the limit): parsed, or the row refused. */
function jsonCell(value: string | undefined, key: string): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return refuse(invalid(key, `${key} must be JSON`));
  }
}

/** Tag names joined with `|`, where a `|` or `\` inside a name is written `\|` / `\\`. */
export function splitEscapedTags(value: string): string[] | undefined {
  if (value === '') return undefined;
  const tags: string[] = [];
  let current = '';
  for (let index = 0; index < value.length; index += 1) {
    const char = value[index];
    if (char === '\\' && index + 1 < value.length) {
      index += 1;
      current += value[index];
    } else if (char === '|') {
      tags.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  tags.push(current);
  const names = tags.filter((tag) => tag !== '');
  return names.length > 0 ? names : undefined;
}
