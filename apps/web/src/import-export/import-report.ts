import type { ImportReport } from '@shortlinks/client';
import { ShortlinksError } from '@shortlinks/client';

/** One line of the report's table: a row applied, or refused, in file order. */
export type ReportLine =
  | { row: number; result: 'created' | 'updated' | 'unchanged' | 'skipped'; slug: string | undefined; destination: string }
  | { row: number; result: 'refused'; code: string; message: string };

/** The rows applied and the rows refused, as one table in the file's order. */
export function reportLines(report: ImportReport): ReportLine[] {
  const applied = report.rows.map(
    (row): ReportLine => ({ row: row.row, result: row.outcome, slug: row.slug, destination: row.destination_url }),
  );
  const refused = report.refusals.map(
    (refusal): ReportLine => ({ row: refusal.row, result: 'refused', code: refusal.code, message: refusal.message }),
  );
  return [...applied, ...refused].sort((a, b) => a.row - b.row);
}

/** How many rows the answer left out of its lists (it lists the first 1,000 of each). */
export function unlistedRows(report: ImportReport): number {
  const applied = report.created + report.updated + report.unchanged + report.skipped;
  return Math.max(0, applied - report.rows.length) + Math.max(0, report.refused - report.refusals.length);
}

/** The links an import would write, as the button after a dry run names them: created or updated. */
export function linksToWrite(report: ImportReport): number {
  return report.created + report.updated;
}

const WORDS = { created: 'created', updated: 'updated', unchanged: 'unchanged', skipped: 'skipped', refused: 'refused' } as const;

/** "3 created, 1 skipped, 2 refused": the counts that are not zero, in the report's order. */
export function countsText(report: ImportReport): string {
  const parts = (Object.keys(WORDS) as (keyof typeof WORDS)[])
    .filter((key) => report[key] > 0)
    .map((key) => `${report[key]} ${WORDS[key]}`);
  return parts.length === 0 ? 'no rows' : parts.join(', ');
}

/** A failure of the import as a whole, in words: the server's own sentence where it says what to do. */
export function importErrorOf(error: unknown): string {
  if (!(error instanceof ShortlinksError)) return 'Something went wrong. Please try again.';
  switch (error.code) {
    case 'PAYLOAD_TOO_LARGE':
      return `This file is larger than the server imports at once (${error.message.replace(/\.$/, '')}). Split it into smaller files.`;
    case 'UNKNOWN_FORMAT':
      return 'The format of this file could not be told from its first line. Choose its format and check again.';
    case 'MALFORMED_FILE':
      return `This file cannot be read: ${error.message}`;
    case 'NETWORK_ERROR':
      return 'The server could not be reached. Check the connection and try again.';
    case 'RATE_LIMITED':
      return `Too many requests for now: ${error.message.replace(/\.$/, '')}.`;
    default:
      return error.message;
  }
}
