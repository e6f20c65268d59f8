import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import type { RowProblem } from '../import-row.ts';
import { type TextSource, textChunks } from './text.ts';

/** One line of a JSON Lines file: its value, or why it holds none. Blank lines are skipped (and counted). */
export type JsonLine = { line: number; value: unknown } | { line: number; problem: RowProblem };

/** The values of a JSON Lines file, one a line, streamed; the line number is the row's. */
export async function* jsonLines(source: TextSource): AsyncGenerator<JsonLine> {
  const lines = createInterface({ input: Readable.from(textChunks(source)), crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  for await (const text of lines) {
    line += 1;
    if (text.trim() === '') continue;
    try {
      yield { line, value: JSON.parse(text) };
    } catch (error) {
      yield { line, problem: { code: 'MALFORMED_ROW', message: `the line is not JSON: ${(error as Error).message}` } };
    }
  }
}
