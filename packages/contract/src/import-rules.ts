// The import's rules without zod (in `@shortlinks/contract/rules` too), for the dashboard's bundle.

/** The formats an import reads; detected from the file itself unless the caller names one. */
export const IMPORT_FORMATS = [
  'shortlinks-csv',
  'shortlinks-jsonl',
  'shlink-csv',
  'shlink-import-csv',
  'bitly-json',
  'bitly-csv',
  'kutt-json',
  'yourls-json',
  'yourls-csv',
] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** What an import does with a row whose slug or external id already names a live link of the account. */
export const CONFLICT_MODES = ['skip', 'update', 'fail'] as const;
export type ConflictMode = (typeof CONFLICT_MODES)[number];

/** The default cap on an import file sent to the API (IMPORT_MAX_BYTES): about 40,000 links of our CSV export. */
export const DEFAULT_IMPORT_MAX_BYTES = 10 * 1024 * 1024;

/**
 * Rows listed in an import's answer, of each list (`rows`, `refusals`): the counts are always
 * whole, and a list shorter than its count was cut. A 10 MiB file of one-character lines would
 * otherwise answer millions of refusals.
 */
export const IMPORT_LISTED_ROWS = 1000;

/** The media types POST /links/import takes as its raw body (the file itself). */
export const IMPORT_MEDIA_TYPES = [
  'text/csv',
  'application/x-ndjson',
  'application/jsonl',
  'application/json',
  'application/octet-stream',
] as const;

/** What became of a row that was applied (or, in a dry run, would be). */
export const IMPORT_OUTCOMES = ['created', 'updated', 'unchanged', 'skipped'] as const;
export type ImportOutcome = (typeof IMPORT_OUTCOMES)[number];
