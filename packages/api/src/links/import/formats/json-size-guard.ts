import { MAX_RECORD_BYTES } from './record-size.ts';

/** Where a JSON document holds more than MAX_RECORD_BYTES in one piece. */
export class JsonTooLong extends Error {
  readonly what: 'value' | 'item';

  constructor(what: 'value' | 'item') {
    super(`a JSON ${what} runs past ${MAX_RECORD_BYTES} characters`);
    this.what = what;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** How deep an item sits: `{"data": [ item ] }` and `{"links": { "k": item } }` (the top container is 1). */
const ITEM_DEPTH = 3;

/**
 * The chunks of a JSON document, passed on as they are, stopping the file (JsonTooLong) where one
 * string, key or number, or one item (a value ITEM_DEPTH deep: an element of `data` or `links`),
 * runs past MAX_RECORD_BYTES characters. stream-json's parser holds a whole string before passing
 * it on, and the streamer a whole item, however long (a 200 MB Kutt description took 1.45 GB):
 * this scan of the raw text bounds both before the parser sees them. It costs a pass over the
 * characters, several times cheaper than asking the parser for its values in pieces.
 */
export async function* withinJsonSizes(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let run = 0; // characters of the current string, key or bare value (number, literal)
  let item = 0; // characters of the current item
  for await (const chunk of chunks) {
    let index = 0;
    while (index < chunk.length) {
      if (inString) {
        // Jump to the next quote or backslash: the string's other characters need no look.
        let stop = index;
        if (!escaped) {
          const quote = chunk.indexOf('"', index);
          const backslash = chunk.indexOf('\\', index);
          stop = quote === -1 ? backslash : backslash === -1 ? quote : Math.min(quote, backslash);
          if (stop === -1) stop = chunk.length;
        }
        const skipped = stop - index;
        run += skipped;
        if (depth >= ITEM_DEPTH) item += skipped;
        index = stop;
        if (run > MAX_RECORD_BYTES) throw new JsonTooLong('value');
        if (item > MAX_RECORD_BYTES) throw new JsonTooLong('item');
        if (index >= chunk.length) break;
        const code = chunk.charCodeAt(index);
        run += 1;
        if (depth >= ITEM_DEPTH) item += 1;
        if (escaped) escaped = false;
        else if (code === BACKSLASH) escaped = true;
        else if (code === QUOTE) {
          inString = false;
          run = 0;
        }
        index += 1;
      } else {
        if (depth >= ITEM_DEPTH) item += 1;
        switch (chunk.charCodeAt(index)) {
          case QUOTE:
            inString = true;
            run = 0;
            break;
          case 0x7b: // {
          case 0x5b: // [
            depth += 1;
            run = 0;
            break;
          case 0x7d: // }
          case 0x5d: // ]
            depth -= 1;
            run = 0;
            if (depth < ITEM_DEPTH) item = 0;
            break;
          case 0x2c: // ,
          case 0x3a: // :
          case 0x20: // JSON whitespace
          case 0x09:
          case 0x0a:
          case 0x0d:
            run = 0;
            if (depth < ITEM_DEPTH) item = 0;
            break;
          default:
            run += 1;
        }
        index += 1;
      }
      if (run > MAX_RECORD_BYTES) throw new JsonTooLong('value');
      if (item > MAX_RECORD_BYTES) throw new JsonTooLong('item');
    }
    yield chunk;
  }
}
