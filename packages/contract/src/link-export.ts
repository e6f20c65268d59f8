import { z } from 'zod';

/** The file formats of GET /links/export (docs/import-export.md). */
export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The media type each export format is answered with over REST. */
export const EXPORT_MEDIA_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/jsonl; charset=utf-8',
};

/** Query of GET /links/export. */
export const ExportLinksQuerySchema = z.strictObject({
  format: z
    .enum(EXPORT_FORMATS, { error: `format must be one of ${EXPORT_FORMATS.join(', ')}` })
    .default('csv')
    .meta({ description: '`csv` (RFC 4180, the default) or `jsonl` (one JSON object a line).' }),
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
}
