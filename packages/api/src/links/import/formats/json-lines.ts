import type { RowProblem } from '../import-row.ts';
import { ImportFileError } from './errors.ts';
import { MAX_RECORD_BYTES, TOO_LONG } from './record-size.ts';
import { type TextSource, textChunks } from './text.ts';

/** One line of a JSON Lines file: its value, or why it holds none. Blank lines are skipped (and counted). */
export type JsonLine = { line: number; value: unknown } | { line: number; problem: RowProblem };

/** The values of a JSON Lines file, one a line, streamed; the line number is the row's. */
export async function* jsonLines(source: TextSource): AsyncGenerator<JsonLine> {
  let line = 0;
  for await (const text of linesOf(source)) {
    line += 1;
    if (text.trim() === '') continue;
    try {
      yield { line, value: JSON.parse(text) };
    } catch (error) {
      yield { line, problem: { code: 'MALFORMED_ROW', message: `the line is not JSON: ${(error as Error).message}` } };
    }
  }
}

/**
 * The lines of a text, each without its end (`\n`, `\r\n` or `\r`, as readline reads them). A line
 * is held until it ends, so one longer than MAX_RECORD_BYTES stops the file there (MALFORMED_FILE)
 * instead of growing until memory runs out: a 200 MB line, or /dev/zero, which has none.
 */
async function* linesOf(source: TextSource): AsyncGenerator<string> {
  let pending: string[] = [];
  let pendingBytes = 0;
  let afterCarriageReturn = false;
  let line = 1;
  const hold = (text: string) => {
    if (text === '') return;
    pending.push(text);
    pendingBytes += Buffer.byteLength(text);
    if (pendingBytes > MAX_RECORD_BYTES) throw new ImportFileError('MALFORMED_FILE', `line ${line} ${TOO_LONG}`, line);
  };
  const take = () => {
    const text = pending.join('');
    pending = [];
    pendingBytes = 0;
    line += 1;
    return text;
  };
  for await (const chunk of textChunks(source)) {
    let start = 0;
    // A `\r\n` split between two chunks is one line end.
    if (afterCarriageReturn && chunk.startsWith('\n')) start = 1;
    afterCarriageReturn = false;
    for (const end of chunk.matchAll(/\r\n|\r|\n/g)) {
      if (end.index < start) continue;
      hold(chunk.slice(start, end.index));
      yield take();
      start = end.index + end[0].length;
    }
    afterCarriageReturn = chunk.endsWith('\r');
    hold(chunk.slice(start));
  }
  if (pending.length > 0) yield take();
}
