import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { ImportFormat, ImportRow } from '../import-row.ts';
import { readBitlyCsv, readBitlyJson } from './bitly.ts';
import { DETECTION_BYTES, detectImportFormat } from './detect.ts';
import { ImportFileError, unknownFormat } from './errors.ts';
import { readKuttJson } from './kutt.ts';
import { readShlinkCsv, readShlinkImportCsv } from './shlink.ts';
import { readShortlinksCsv, readShortlinksJsonl } from './shortlinks.ts';
import type { TextSource } from './text.ts';
import { readYourlsCsv, readYourlsJson } from './yourls.ts';

export type { ImportedLink, ImportFormat, ImportRow, RowProblem } from '../import-row.ts';
export { IMPORT_FORMATS } from '../import-row.ts';
export { readBitlyCsv, readBitlyJson } from './bitly.ts';
export { detectImportFormat } from './detect.ts';
export { ImportFileError } from './errors.ts';
export { readKuttJson } from './kutt.ts';
export { readShlinkCsv, readShlinkImportCsv } from './shlink.ts';
export { readShortlinksCsv, readShortlinksJsonl } from './shortlinks.ts';
export type { TextSource } from './text.ts';
export { readYourlsCsv, readYourlsJson } from './yourls.ts';

/** Each format's reader: text in, rows out, one at a time. */
export const IMPORT_FORMAT_READERS: Record<ImportFormat, (source: TextSource) => AsyncIterable<ImportRow>> = {
  'shortlinks-csv': readShortlinksCsv,
  'shortlinks-jsonl': readShortlinksJsonl,
  'shlink-csv': readShlinkCsv,
  'shlink-import-csv': readShlinkImportCsv,
  'bitly-json': readBitlyJson,
  'bitly-csv': readBitlyCsv,
  'kutt-json': readKuttJson,
  'yourls-json': readYourlsJson,
  'yourls-csv': readYourlsCsv,
};

/**
 * Opens an import file: its format (the one named, or detected from its first bytes) and its rows,
 * streamed from disk so memory stays flat whatever the file's size. Throws ImportFileError when the
 * file cannot be opened or its format cannot be told; a row that cannot be read is a row problem.
 */
export async function readImportFile(
  path: string,
  format?: ImportFormat,
): Promise<{ format: ImportFormat; rows: AsyncIterable<ImportRow> }> {
  const head = await readHead(path);
  const chosen = format ?? (await detectImportFormat(head));
  if (chosen === undefined) {
    throw unknownFormat(head.trim() === '' ? `${path} is empty` : `cannot tell the format of ${path} from its first line`);
  }
  return { format: chosen, rows: IMPORT_FORMAT_READERS[chosen](createReadStream(path)) };
}

async function readHead(path: string): Promise<string> {
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, 'r');
  } catch (error) {
    throw new ImportFileError('UNREADABLE_FILE', `cannot open ${path}: ${(error as Error).message}`);
  }
  try {
    const buffer = Buffer.alloc(DETECTION_BYTES);
    let bytesRead: number;
    try {
      // A directory opens, and fails only when read (EISDIR).
      ({ bytesRead } = await file.read(buffer, 0, DETECTION_BYTES, 0));
    } catch (error) {
      throw new ImportFileError('UNREADABLE_FILE', `cannot read ${path}: ${(error as Error).message}`);
    }
    try {
      // `stream`: a character cut by the 64 KiB limit is not an error.
      return new TextDecoder('utf-8', { fatal: true }).decode(buffer.subarray(0, bytesRead), { stream: true });
    } catch {
      throw new ImportFileError(
        'MALFORMED_FILE',
        `${path} is not UTF-8 text: save it as UTF-8 (a spreadsheet's "CSV UTF-8") and import it again`,
      );
    }
  } finally {
    await file.close();
  }
}
