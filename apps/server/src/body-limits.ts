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
 * Every procedure whose meta says its body holds many link bodies (`bodyItems`), with its limits:
 * room for that many bodies of the usual limit, plus one for what holds them, and the depth of one
 * plus the levels that hold it, so any set of items each accepted alone is accepted together
 * (docs/api-decisions.md).
 */
export function largeBodies(): LargeBody[] {
  return everyProcedureMeta().flatMap(([procedure, meta]) =>
    meta.bodyItems
      ? [{ procedure, meta, bodyLimit: BODY_LIMIT_BYTES * (meta.bodyItems + 1), jsonDepth: MAX_JSON_DEPTH + BULK_WRAPPER_DEPTH }]
      : [],
  );
}
