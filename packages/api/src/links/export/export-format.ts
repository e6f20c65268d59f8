import { type CSV_FORMULAS, EXPORT_COLUMNS, type ExportedLink, type ExportFormat } from '@shortlinks/contract';
import { guardFormula } from './spreadsheet-formulas.ts';

/**
 * The export file formats (docs/import-export.md), as pure functions of one exported link, so the
 * REST answer, the tRPC stream and the CLI write the same bytes.
 *
 * CSV is written here rather than by a library: RFC 4180 writing is one quoting rule, and the
 * formats branch adds its own CSV dependency to the same workspace catalog.
 */

const CSV_LINE_END = '\r\n';

/** A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180), quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * Tag names in one CSV cell: joined with `|`, a `|` or `\` inside a name written `\|` / `\\`,
 * so any name survives the round trip.
 */
export function joinTagNames(names: readonly string[]): string {
  return names.map((name) => name.replaceAll('\\', '\\\\').replaceAll('|', '\\|')).join('|');
}

/** The CSV header row. */
export const CSV_HEADER = `${EXPORT_COLUMNS.join(',')}${CSV_LINE_END}`;

/**
 * One link as a CSV row: absent values are empty cells. Every cell a spreadsheet would run as a
 * formula is guarded unless `formulas` is `raw` (docs/import-export.md, "Spreadsheet formulas").
 */
export function csvRow(link: ExportedLink, formulas: (typeof CSV_FORMULAS)[number] = 'guarded'): string {
  const text = formulas === 'raw' ? (value: string) => value : guardFormula;
  const cells = EXPORT_COLUMNS.map((column) => {
    const value = link[column];
    if (value === null) return '';
    if (column === 'tags') return csvField(text(joinTagNames(value as string[])));
    // The rules and the preview: their JSON text.
    if (typeof value === 'object') return csvField(text(JSON.stringify(value)));
    return csvField(text(String(value)));
  });
  return `${cells.join(',')}${CSV_LINE_END}`;
}

/** One link as a JSON line, its keys in the export's column order. */
export function jsonLine(link: ExportedLink): string {
  const ordered = Object.fromEntries(EXPORT_COLUMNS.map((column) => [column, link[column]]));
  return `${JSON.stringify(ordered)}\n`;
}

/** What an export file starts with, before its first link. */
export const fileStart = (format: ExportFormat): string => (format === 'jsonl' ? '' : CSV_HEADER);

/** One link as a line of the file. */
export function fileLine(format: ExportFormat, link: ExportedLink): string {
  if (format === 'jsonl') return jsonLine(link);
  return csvRow(link, format === 'csv-raw' ? 'raw' : 'guarded');
}
