import type { ImportedLink, ImportRow } from '../import-row.ts';
import type { CsvRow } from './csv-records.ts';
import type { JsonItem } from './json-items.ts';
import type { JsonLine } from './json-lines.ts';
import { jsonObject, readRow } from './values.ts';

/** Maps each CSV record to a link; the row number is the record's first line. */
export async function* rowsOfCsv(
  records: AsyncIterable<CsvRow>,
  map: (cells: Record<string, string>) => ImportedLink,
): AsyncGenerator<ImportRow> {
  for await (const record of records) {
    yield 'problem' in record ? { row: record.line, problem: record.problem } : { row: record.line, ...readRow(() => map(record.cells)) };
  }
}

/** Maps each JSON line's object to a link; the row number is the line's. */
export async function* rowsOfJsonLines(
  lines: AsyncIterable<JsonLine>,
  map: (item: Record<string, unknown>) => ImportedLink,
): AsyncGenerator<ImportRow> {
  for await (const line of lines) {
    yield 'problem' in line ? { row: line.line, problem: line.problem } : { row: line.line, ...readRow(() => map(jsonObject(line.value))) };
  }
}

/** Maps each item of a JSON document to a link; the row number is the item's position. */
export async function* rowsOfJsonItems(
  items: AsyncIterable<JsonItem>,
  map: (item: Record<string, unknown>) => ImportedLink,
): AsyncGenerator<ImportRow> {
  for await (const item of items) {
    yield { row: item.position, ...readRow(() => map(jsonObject(item.value))) };
  }
}
