import { everyProcedureMeta, type Meta } from '@shortlinks/api';
import { BULK_WRAPPER_DEPTH, MAX_JSON_DEPTH } from './json-depth.ts';

/** Request bodies above this size are refused with 413 PAYLOAD_TOO_LARGE (a link body is a few KiB). */
export const BODY_LIMIT_BYTES = 64 * 1024;

/** A procedure that takes a larger body than the usual (a bulk call), and how large. */
export interface LargeBody {
  /** The procedure's path in the router (`links.bulkCreate`). */
  procedure: string;
  meta: Meta;
  bodyLimit: number;
  /** How deep it may nest: as deep as each item alone, plus what holds the items. */
  jsonDepth: number;
}

/**
 * A file sent as the text of a JSON string (tRPC's `links.import`) takes more bytes than the file:
 * every `"` and `\` is escaped, and a CSV or JSON Lines file is full of quotes. Twice the file,
 * plus the usual body for the rest of the input; the procedure then checks the file itself
 * against the cap, so the cap means the same on both transports.
 */
export const FILE_AS_JSON_BYTES_PER_BYTE = 2;

/**
 * Every procedure whose meta says its body holds many link bodies (`bodyItems`), with its limits:
 * room for that many bodies of the usual limit, plus one for what holds them, and the depth of one
 * plus the levels that hold it, so any set of items each accepted alone is accepted together
 * (docs/api-decisions.md). A procedure that takes a file (`file`: the import) gets room for the
 * largest file the server imports (`fileBytes`, IMPORT_MAX_BYTES) as JSON text.
 */
export function largeBodies(fileBytes: number): LargeBody[] {
  return everyProcedureMeta().flatMap(([procedure, meta]) => {
    if (meta.file) {
      return [{ procedure, meta, bodyLimit: fileBytes * FILE_AS_JSON_BYTES_PER_BYTE + BODY_LIMIT_BYTES, jsonDepth: MAX_JSON_DEPTH }];
    }
    return meta.bodyItems
      ? [{ procedure, meta, bodyLimit: BODY_LIMIT_BYTES * (meta.bodyItems + 1), jsonDepth: MAX_JSON_DEPTH + BULK_WRAPPER_DEPTH }]
      : [];
  });
}
