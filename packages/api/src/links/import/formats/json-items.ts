import { pipeline, Readable } from 'node:stream';
import { parser } from 'stream-json';
import pick from 'stream-json/filters/pick.js';
import streamValues from 'stream-json/streamers/stream-values.js';
import { ImportFileError } from './errors.ts';
import { JsonTooLong, withinJsonSizes } from './json-size-guard.ts';
import { TOO_LONG } from './record-size.ts';
import { type TextSource, textChunks } from './text.ts';

/** One item of a JSON document's list, with its 1-based position in the file (across pages). */
export interface JsonItem {
  position: number;
  value: unknown;
}

/**
 * The items at `path` (e.g. `/^links\.\d+$/`: each element of a top-level `links` array) of a JSON
 * document, or of several documents one after another (Bitly's pages saved to one file), streamed:
 * only one item is held at a time, whatever the file's size. JSON that cannot be read stops the file,
 * and so does a value or an item longer than MAX_RECORD_BYTES (json-size-guard.ts). The items are
 * ITEM_DEPTH deep: elements of a top-level key's value, as every format's `path` names them.
 */
export async function* jsonItems(source: TextSource, path: RegExp): AsyncGenerator<JsonItem> {
  // pipeline, not pipe: an error anywhere (a read error, JSON that does not parse) reaches the loop.
  const items = pipeline(
    Readable.from(withinJsonSizes(textChunks(source))),
    parser.asStream({ jsonStreaming: true, streamValues: false }),
    pick.asStream({ filter: path }),
    streamValues.asStream(),
    () => {},
  ) as AsyncIterable<{ key: number; value: unknown }>;
  let position = 0;
  try {
    for await (const { value } of items) {
      position += 1;
      yield { position, value };
    }
  } catch (error) {
    if (error instanceof JsonTooLong) {
      const what = error.what === 'item' ? `item ${position + 1}` : `a value after item ${position}`;
      throw new ImportFileError('MALFORMED_FILE', `the JSON cannot be read on: ${what} ${TOO_LONG}`);
    }
    throw new ImportFileError('MALFORMED_FILE', `the JSON cannot be read after item ${position}: ${(error as Error).message}`);
  }
}
