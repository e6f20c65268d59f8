import { z } from 'zod';
import { ListLinksQuerySchema } from './link.ts';
import type { Preview, RedirectRule } from './smart-link-fields.ts';

/** The file formats of GET /links/export (docs/import-export.md): `?format=`. */
export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;

/**
 * How a CSV export writes a value a spreadsheet would run as a formula: `guarded` (the default)
 * with a `'` in front, `raw` as it is, for programs (docs/import-export.md, "Spreadsheet formulas").
 */
export const CSV_FORMULAS = ['guarded', 'raw'] as const;

/**
 * How an export file is written: a format of {@link EXPORT_FORMATS}, or `csv-raw`, the CSV with
 * `csv_formulas=raw`. The CSV flavour travels with the format so that the export service, which
 * only passes it to the writer, needs no option of its own.
 */
export type ExportFormat = (typeof EXPORT_FORMATS)[number] | 'csv-raw';

/** The file an export query asks for. */
export function exportFormatOf(query: {
  format: (typeof EXPORT_FORMATS)[number];
  csv_formulas: (typeof CSV_FORMULAS)[number];
}): ExportFormat {
  return query.format === 'csv' && query.csv_formulas === 'raw' ? 'csv-raw' : query.format;
}

/** The media type each export format is answered with over REST. */
export const EXPORT_MEDIA_TYPES: Record<(typeof EXPORT_FORMATS)[number], string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/jsonl; charset=utf-8',
};

/**
 * Query of GET /links/export: the file, and which links, by the list's own filters (a search, tags
 * and a domain, as GET /links reads them), so the dashboard exports what its list shows.
 */
export const ExportLinksQuerySchema = z.strictObject({
  ...ListLinksQuerySchema.pick({ tag_ids: true, search: true, domain: true }).shape,
  format: z
    .enum(EXPORT_FORMATS, { error: `format must be one of ${EXPORT_FORMATS.join(', ')}` })
    .default('csv')
    .meta({ description: '`csv` (RFC 4180, the default) or `jsonl` (one JSON object a line).' }),
  csv_formulas: z
    .enum(CSV_FORMULAS, { error: `csv_formulas must be one of ${CSV_FORMULAS.join(', ')}` })
    .default('guarded')
    .meta({
      description:
        "`guarded` (the default): a CSV cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a `'` in front, so a " +
        'spreadsheet shows it as text instead of running it; our import removes it again. `raw`: values as they are, for programs. ' +
        'JSON Lines always carries values as they are.',
    }),
});
export type ExportLinksQuery = z.infer<typeof ExportLinksQuerySchema>;

/**
 * The columns of an export, in this order: the CSV header and the keys of each JSON line
 * (docs/import-export.md). Import readers parse exactly these.
 */
export const EXPORT_COLUMNS = [
  'id',
  'slug',
  'short_url',
  'destination_url',
  'title',
  'tags',
  'external_id',
  'comments',
  'expires_at',
  'expiration_url',
  'click_count',
  'created_at',
  // Smart links (issue #30), after the spec's fields so files of before read the same: the
  // password as its argon2id hash (never the password), the limit, and the rules and preview as
  // JSON (a JSON text cell in CSV).
  'password_hash',
  'max_clicks',
  'rules',
  'preview',
] as const;

/** One exported link, as a JSON line carries it: absent values null, times ISO 8601 UTC with milliseconds. */
export interface ExportedLink {
  id: string;
  slug: string;
  short_url: string;
  destination_url: string;
  title: string;
  /** Tag names, sorted by name. */
  tags: string[];
  external_id: string | null;
  comments: string | null;
  expires_at: string | null;
  expiration_url: string | null;
  click_count: number;
  created_at: string;
  password_hash: string | null;
  max_clicks: number | null;
  rules: RedirectRule[] | null;
  preview: Preview | null;
}
