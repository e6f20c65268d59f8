import { pipeline, Readable } from 'node:stream';
import { type CsvError, parse } from 'csv-parse';
import type { RowProblem } from '../import-row.ts';
import { ImportFileError } from './errors.ts';
import { MAX_RECORD_BYTES } from './record-size.ts';
import { readAhead, type TextSource, textChunks } from './text.ts';

/** One CSV record after the header: its cells by (normalized) column name, and the line it starts on. */
export type CsvRow = { line: number; cells: Record<string, string> } | { line: number; problem: RowProblem };

export interface CsvReading {
  /** How a header cell is named in `cells`, e.g. lower case without spaces for Shlink's importer. */
  columnName: (header: string) => string;
}

/**
 * The field separator of a CSV file, from its header line: `;` when the line has one and no `,`
 * (a spreadsheet whose list separator is `;`, as Excel's is in most of Europe, saves CSV so; and
 * Shlink's importer is told either), else `,`. Detection and every reader decide with this, so a
 * file is read the way it was recognized.
 */
export function headerDelimiter(firstLine: string): ',' | ';' {
  return !firstLine.includes(',') && firstLine.includes(';') ? ';' : ',';
}

const LINE_BREAK = /\r\n|\r|\n/g;

/**
 * The records of an RFC 4180 file (header first), streamed. A record's line is where it starts, the
 * header being line 1: counted here from the line breaks inside its cells and the empty lines
 * skipped, because csv-parse counts a quoted CRLF twice. Quoting that cannot be read stops the file
 * (everything after it would be misread); a record with more non-empty cells than the header is
 * reported, fewer cells leave the rest empty.
 */
export async function* csvRecords(source: TextSource, reading: CsvReading): AsyncGenerator<CsvRow> {
  const { delimiter, chunks } = await pickDelimiter(textChunks(source));
  // Bad quoting is skipped by csv-parse (rather than thrown, which would drop the records it had
  // already parsed) and noted with how many records came before it: reading stops there, and no
  // more of the file is fed to the parser.
  let failure: { error: CsvError; after: number } | undefined;
  async function* untilFailure() {
    for await (const chunk of chunks) {
      if (failure !== undefined) return;
      yield chunk;
    }
  }
  const parser = parse({
    delimiter,
    bom: true,
    info: true,
    skip_empty_lines: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_records_with_error: true,
    // A stray quote makes csv-parse take the rest of the file as one cell: this stops it there.
    max_record_size: MAX_RECORD_BYTES,
    on_skip: (error) => {
      if (error !== undefined) failure ??= { error, after: parser.info.records };
      return undefined;
    },
  });
  // pipeline, not pipe: a read error of the file reaches the loop instead of leaving it waiting.
  const records = pipeline(Readable.from(untilFailure()), parser, () => {}) as AsyncIterable<{
    record: string[];
    info: { empty_lines: number };
  }>;
  let header: string[] | undefined;
  let linesBefore = 0;
  let emptyLines = 0;
  let seen = 0;
  for await (const { record, info } of records) {
    if (failure !== undefined && seen >= failure.after) break;
    seen += 1;
    emptyLines = info.empty_lines;
    const line = 1 + linesBefore + emptyLines;
    linesBefore += 1 + record.reduce((breaks, value) => breaks + (value.match(LINE_BREAK)?.length ?? 0), 0);
    if (header === undefined) {
      header = record.map((name) => reading.columnName(name));
      continue;
    }
    if (record.slice(header.length).some((value) => value !== '')) {
      yield {
        line,
        problem: { code: 'MALFORMED_ROW', message: `the record has ${record.length} cells where the header has ${header.length}` },
      };
      continue;
    }
    const cells: Record<string, string> = {};
    header.forEach((name, index) => {
      cells[name] = record[index] ?? '';
    });
    yield { line, cells };
  }
  if (failure !== undefined) {
    const line = 1 + linesBefore + emptyLines;
    const why =
      failure.error.code === 'CSV_MAX_RECORD_SIZE'
        ? `its record runs past ${MAX_RECORD_BYTES / 1024} KiB, which no link's row does: most likely an unclosed quote`
        : failure.error.message;
    throw new ImportFileError('MALFORMED_FILE', `the CSV cannot be read from line ${line} on: ${why}`, line);
  }
}

/** The separator the header line says, and every chunk again (those read to find it included). */
async function pickDelimiter(chunks: AsyncGenerator<string>): Promise<{ delimiter: string; chunks: AsyncIterable<string> }> {
  const ahead = await readAhead(chunks, (text) => /[\r\n]/.test(text) || text.length > 65_536);
  const end = ahead.head.search(/[\r\n]/);
  return { delimiter: headerDelimiter(end >= 0 ? ahead.head.slice(0, end) : ahead.head), chunks: ahead.chunks };
}
