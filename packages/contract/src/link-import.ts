import { z } from 'zod';
import { CONFLICT_MODES, DEFAULT_IMPORT_MAX_BYTES, IMPORT_FORMATS, IMPORT_LISTED_ROWS, IMPORT_OUTCOMES } from './import-rules.ts';

/**
 * POST /links/import and `links.import` (issue #32): an import file sent to the API, read and
 * applied as `pnpm shortlinks import` does (docs/import-export.md, "Importing over the API").
 */

/** `true`/`false` as a query string sends them, or a boolean from a typed caller. */
const flag = z.union([
  z.boolean(),
  z.enum(['true', 'false'], { error: 'dry_run must be true or false' }).transform((text) => text === 'true'),
]);

/** Query of POST /links/import: how to read and apply the file, which is the body. */
export const ImportLinksQuerySchema = z.strictObject({
  format: z
    .enum(IMPORT_FORMATS, { error: `format must be one of ${IMPORT_FORMATS.join(', ')}` })
    .optional()
    .meta({ description: 'The file format; detected from the file when absent, as `pnpm shortlinks import` detects it.' }),
  on_conflict: z
    .enum(CONFLICT_MODES, { error: `on_conflict must be one of ${CONFLICT_MODES.join(', ')}` })
    .default('skip')
    .meta({
      description:
        '`skip` (the default) leaves a live link a row names as it is; `update` applies the row to it; `fail` stops at the first ' +
        'conflict and changes nothing.',
    }),
  dry_run: flag.default(false).meta({ description: 'Check every row as the import would, and write nothing.' }),
});

/** `links.import` over tRPC: the query's fields and the file's text. */
export const ImportLinksInputSchema = ImportLinksQuerySchema.extend({
  file: z.string({ error: 'file must be the text of the import file' }).meta({
    description: `The import file's text (UTF-8), at most the server's IMPORT_MAX_BYTES (${DEFAULT_IMPORT_MAX_BYTES / 1024 / 1024} MiB by default) as UTF-8.`,
  }),
});
export type ImportLinksInput = z.input<typeof ImportLinksInputSchema>;

/** A row of the file that was not applied, and why: the API's error code, or the file's row problem. */
export const ImportRefusalSchema = z.object({
  row: z.number().meta({ description: 'Where the row is in the file: a CSV line, a JSON line, or a JSON item position.' }),
  code: z.string(),
  message: z.string(),
  field: z.string().optional(),
});
export type ImportRefusal = z.infer<typeof ImportRefusalSchema>;

export const ImportedRowSchema = z.object({
  row: z.number(),
  outcome: z.enum(IMPORT_OUTCOMES),
  slug: z
    .string()
    .optional()
    .meta({ description: "The link's slug; absent for a link created with a random one in a dry run (the real import draws another)." }),
  destination_url: z.string(),
});
export type ImportedRow = z.infer<typeof ImportedRowSchema>;

/**
 * The answer of an import: the CLI's `--json` report, in the API's words. No schema here has an
 * id: the OpenAPI document writes the import's operation itself (the body is a file), inline.
 */
export const ImportReportSchema = z.object({
  format: z.enum(IMPORT_FORMATS),
  dry_run: z.boolean(),
  on_conflict: z.enum(CONFLICT_MODES),
  read: z.number().meta({ description: 'Rows read from the file.' }),
  created: z.number(),
  updated: z.number(),
  unchanged: z.number().meta({ description: 'Rows that matched a link already holding what they carry (`update`).' }),
  skipped: z.number().meta({ description: 'Rows that matched a live link left as it was (`skip`).' }),
  refused: z.number(),
  rows: z
    .array(ImportedRowSchema)
    .meta({ description: `The first ${IMPORT_LISTED_ROWS} rows applied (created, updated, unchanged or skipped), in file order.` }),
  refusals: z.array(ImportRefusalSchema).meta({ description: `The first ${IMPORT_LISTED_ROWS} refused rows, in file order.` }),
  notes: z
    .array(z.string())
    .optional()
    .meta({ description: 'Said once per domain: rows naming a domain the workspace has not verified went to its default domain.' }),
  stopped_at: ImportRefusalSchema.optional().meta({
    description: 'With `on_conflict=fail`: the conflict that stopped the import, which then changed nothing.',
  }),
});
export type ImportReport = z.infer<typeof ImportReportSchema>;
