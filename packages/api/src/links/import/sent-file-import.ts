import {
  type ConflictMode,
  DEFAULT_IMPORT_MAX_BYTES,
  IMPORT_FORMATS,
  IMPORT_LISTED_ROWS,
  type ImportedRow,
  type ImportFormat,
  type ImportRefusal,
  type ImportReport,
} from '@shortlinks/contract';
import { AppError } from '../../errors.ts';
import { DETECTION_BYTES, detectImportFormat } from './formats/detect.ts';
import { ImportFileError } from './formats/errors.ts';
import { IMPORT_FORMAT_READERS } from './formats/index.ts';
import type { LinkImportService, RowRefusal } from './link-import.ts';

/** An import file sent to the API, and how to apply it. */
export interface SentFile {
  file: string;
  format?: ImportFormat | undefined;
  on_conflict: ConflictMode;
  dry_run: boolean;
}

/**
 * POST /links/import and `links.import` (issue #32): a file sent to the API, read by the CLI's
 * readers and applied by the CLI's import (LinkImportService), so the rules, the row numbers and
 * the codes are the same (docs/import-export.md, "Importing over the API"). What the API adds: the
 * cap on the file's size (IMPORT_MAX_BYTES), and an answer whose lists of rows are capped
 * (IMPORT_LISTED_ROWS) while its counts stay whole, so neither the request nor the answer grows
 * without bound.
 */
export class SentFileImportService {
  readonly #imports: LinkImportService;
  /** The largest file taken, in UTF-8 bytes; both transports read it for their body limits. */
  readonly maxBytes: number;

  constructor(imports: LinkImportService, maxBytes = DEFAULT_IMPORT_MAX_BYTES) {
    this.#imports = imports;
    this.maxBytes = maxBytes;
  }

  /** `mayCreateTags`: false for a key without `tags.write`, whose rows naming new tags are refused. */
  async import(accountId: string, sent: SentFile, mayCreateTags = true): Promise<ImportReport> {
    const bytes = Buffer.byteLength(sent.file);
    if (bytes > this.maxBytes) {
      throw new AppError('PAYLOAD_TOO_LARGE', `The file is ${bytes} bytes; this server imports files of at most ${this.maxBytes}`, 'file');
    }
    const format = sent.format ?? (await detectImportFormat(sent.file.slice(0, DETECTION_BYTES)));
    if (format === undefined) {
      const what = sent.file.trim() === '' ? 'The file is empty' : 'The format of the file cannot be told from its first line';
      throw new AppError('UNKNOWN_FORMAT', `${what}; name one with format: ${IMPORT_FORMATS.join(', ')}`, 'format');
    }

    const rows: ImportedRow[] = [];
    const refusals: ImportRefusal[] = [];
    let result: Awaited<ReturnType<LinkImportService['import']>>;
    try {
      result = await this.#imports.import(accountId, IMPORT_FORMAT_READERS[format](sent.file), {
        onConflict: sent.on_conflict,
        dryRun: sent.dry_run,
        mayCreateTags,
        onApplied: ({ row, outcome, slug, destination_url, randomSlug }) => {
          if (rows.length >= IMPORT_LISTED_ROWS) return;
          // A dry run's random slug is undone with it: the import will draw another.
          rows.push(randomSlug && sent.dry_run ? { row, outcome, destination_url } : { row, outcome, slug, destination_url });
        },
        onRefused: (refusal) => {
          if (refusals.length < IMPORT_LISTED_ROWS) refusals.push(answered(refusal));
        },
      });
    } catch (error) {
      if (!(error instanceof ImportFileError)) throw error;
      throw new AppError(
        error.code === 'UNKNOWN_FORMAT' ? 'UNKNOWN_FORMAT' : 'MALFORMED_FILE',
        `${error.message}${sent.dry_run || sent.on_conflict === 'fail' ? '. Nothing was changed.' : afterMidwayFailure}`,
        'file',
      );
    }
    const { read, created, updated, unchanged, skipped, refused, stoppedAt, notes } = result;
    const report: ImportReport = {
      format,
      dry_run: sent.dry_run,
      on_conflict: sent.on_conflict,
      read,
      created,
      updated,
      unchanged,
      skipped,
      refused,
      // Stopped by a conflict, a `fail` import was undone: no row was applied.
      rows: stoppedAt ? [] : rows,
      refusals,
    };
    if (notes.length > 0) report.notes = notes;
    if (stoppedAt) report.stopped_at = answered(stoppedAt);
    return report;
  }
}

/** A refusal as the answer carries it: without a `field` when none is at fault. */
function answered({ row, code, message, field }: RowRefusal): ImportRefusal {
  return field === undefined ? { row, code, message } : { row, code, message, field };
}

/** What a file that breaks midway leaves: the batches before it stay, and importing again is safe. */
const afterMidwayFailure =
  '. Rows before it may have been imported (in batches of 500); fix the file and import it again: rows already imported are not imported twice.';
