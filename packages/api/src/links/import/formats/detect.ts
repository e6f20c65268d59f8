import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { parser } from 'stream-json';
import type { ImportFormat } from '../import-row.ts';
import { BITLY_DESTINATION_COLUMNS, BITLY_ONLY_COLUMNS, bitlyColumnName } from './bitly.ts';
import { headerDelimiter } from './csv-records.ts';
import { withoutBom } from './text.ts';

/** How many of a file's first bytes detection reads. */
export const DETECTION_BYTES = 65_536;

/**
 * The format of a file from its first characters (docs/import-export.md, "Detection"): for JSON, the
 * keys of the first top-level object and what they hold; for CSV, the header's column names.
 * Undefined when nothing fits.
 */
export async function detectImportFormat(head: string): Promise<ImportFormat | undefined> {
  const text = withoutBom(head).trimStart();
  if (text.startsWith('{') || text.startsWith('[')) return jsonFormat(await topLevelKeys(text));
  return csvFormat(text);
}

type Held = 'object' | 'array' | 'value';

/** What the head shows of the first top-level object: its keys, and those of each list's first item. */
interface JsonHead {
  keys: Map<string, Held>;
  /** By the top-level key holding the list: the keys of its first item, when that item is an object. */
  firstItemKeys: Map<string, Set<string>>;
}

function jsonFormat({ keys, firstItemKeys }: JsonHead): ImportFormat | undefined {
  if (keys.get('links') === 'object') return 'yourls-json';
  if (keys.get('links') === 'array') return 'bitly-json';
  if (keys.get('data') === 'array') {
    // `total`, `limit` and `skip` come after `data` when the keys are sorted (`jq -S`), past the
    // head in a large file: a first link with Kutt's `address` and `target` tells it too.
    const firstLink = firstItemKeys.get('data');
    if (keys.has('total') || keys.has('skip') || keys.has('limit')) return 'kutt-json';
    if (firstLink?.has('address') && firstLink.has('target')) return 'kutt-json';
  }
  if (keys.has('destination_url')) return 'shortlinks-jsonl';
  if (keys.has('long_url')) return 'bitly-json';
  return undefined;
}

/** The keys of the first top-level object and what each holds, read as far as the head goes. */
async function topLevelKeys(head: string): Promise<JsonHead> {
  const keys = new Map<string, Held>();
  const firstItemKeys = new Map<string, Set<string>>();
  let depth = 0;
  let key: string | undefined;
  let list: string | undefined;
  let item: Set<string> | undefined;
  const hold = (held: Held) => {
    if (depth === 1 && key !== undefined) {
      keys.set(key, held);
      if (held === 'array') list = key;
    }
    if (depth === 2 && held === 'object' && list !== undefined && !firstItemKeys.has(list)) {
      item = new Set();
      firstItemKeys.set(list, item);
    }
    key = undefined;
  };
  // Tokens are taken as they come ('data'), not by iterating: the head usually ends inside the
  // document, and the parser's error would drop tokens still buffered.
  const tokens = Readable.from([head]).pipe(parser.asStream({ jsonStreaming: true, streamValues: false }));
  await new Promise<void>((resolve) => {
    const done = () => {
      tokens.destroy();
      resolve();
    };
    tokens.on('data', (token: { name: string; value?: unknown }) => {
      if (token.name === 'startObject' || token.name === 'startArray') {
        hold(token.name === 'startObject' ? 'object' : 'array');
        depth += 1;
      } else if (token.name === 'endObject' || token.name === 'endArray') {
        depth -= 1;
        if (depth === 2) item = undefined;
        if (depth === 1) list = undefined;
        if (depth === 0) done();
      } else if (token.name === 'keyValue') {
        if (depth === 1) key = String(token.value);
        else if (depth === 3) item?.add(String(token.value));
      } else if (token.name.endsWith('Value')) {
        hold('value');
      }
    });
    tokens.on('error', done);
    tokens.on('end', done);
    tokens.on('close', done);
  });
  return { keys, firstItemKeys };
}

function csvFormat(text: string): ImportFormat | undefined {
  const firstLine = text.split(/\r\n|\r|\n/, 1)[0] ?? '';
  if (firstLine === '') return undefined;
  const delimiter = headerDelimiter(firstLine);
  let header: string[];
  try {
    header = ((parse(firstLine, { delimiter, relax_quotes: true, relax_column_count: true }) as string[][])[0] ?? []).map((name) =>
      name.trim().toLowerCase(),
    );
  } catch {
    return undefined;
  }
  const has = (name: string) => header.includes(name);
  if (has('slug') && has('destination_url')) return 'shortlinks-csv';
  if (has('createdat') && has('longurl') && has('shorturl')) return 'shlink-csv';
  if (header[0] === 'source' && header[1] === 'target') return 'yourls-csv';
  // Shlink's importer CSV (`Long URL,Short code,Domain,Title,Tags`) and Bitly's share `Long URL`,
  // `Title` and `Tags`: a column only one of them has decides, Shlink's `Short code` first, then any
  // of Bitly's own (`Bitlink`, `Custom Link`, `Short URL`, `Created`, …), then Shlink's `Domain`.
  const shlinkNames = header.map((name) => name.replaceAll(' ', ''));
  const shlinkHas = (name: string) => shlinkNames.includes(name);
  const bitlyNames = header.map(bitlyColumnName);
  if (shlinkHas('longurl') && shlinkHas('shortcode')) return 'shlink-import-csv';
  if (bitlyNames.some((name) => BITLY_ONLY_COLUMNS.includes(name))) return 'bitly-csv';
  if (shlinkHas('longurl') && shlinkHas('domain')) return 'shlink-import-csv';
  if (bitlyNames.some((name) => BITLY_DESTINATION_COLUMNS.includes(name))) return 'bitly-csv';
  if (shlinkHas('longurl')) return 'shlink-import-csv';
  return undefined;
}
