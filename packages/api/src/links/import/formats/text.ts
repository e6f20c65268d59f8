import { StringDecoder } from 'node:string_decoder';

/** What a format reader reads: a file's stream, or strings in tests. */
export type TextSource = string | Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>;

const BOM = '\uFEFF';

/**
 * The source as UTF-8 text, chunk by chunk (a character split across chunks is kept whole), without
 * a leading byte-order mark: spreadsheet programs write one, and every reader would trip on it.
 */
export async function* textChunks(source: TextSource): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let first = true;
  for await (const chunk of typeof source === 'string' ? [source] : source) {
    let text = typeof chunk === 'string' ? chunk : decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if (first && text.length > 0) {
      if (text.startsWith(BOM)) text = text.slice(1);
      first = false;
    }
    if (text.length > 0) yield text;
  }
  const rest = decoder.end();
  if (rest.length > 0) yield rest;
}

/** Removes a leading byte-order mark from a file's first characters. */
export function withoutBom(head: string): string {
  return head.startsWith(BOM) ? head.slice(1) : head;
}

/**
 * Reads chunks until `settled` says the text read so far is enough to decide something (e.g. the
 * first line is whole), and gives that text with every chunk again, the ones read included.
 */
export async function readAhead(
  chunks: AsyncGenerator<string>,
  settled: (text: string) => boolean,
): Promise<{ head: string; chunks: AsyncGenerator<string> }> {
  const seen: string[] = [];
  let head = '';
  // next(), not for-await: leaving a for-await loop early closes the generator, and the rest of the
  // file would be lost.
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
    seen.push(next.value);
    head += next.value;
    if (settled(head)) break;
  }
  async function* replay() {
    yield* seen;
    yield* chunks;
  }
  return { head, chunks: replay() };
}
