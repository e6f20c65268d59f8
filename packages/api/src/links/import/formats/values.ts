import type { ImportedLink, RowProblem } from '../import-row.ts';
import { foreignTagNames } from './foreign-title.ts';

/** A row's reading: the link, or why there is none. */
export type RowReading = { link: ImportedLink } | { problem: RowProblem };

/** A value the row holds but that cannot be used (missing, wrong type, unparsable): the API's code. */
export function invalid(field: string, message: string): RowProblem {
  return { code: 'VALIDATION_ERROR', message, field };
}

/** Thrown inside a row's mapping, turned into that row's problem by `readRow`. */
class RowRefused extends Error {
  readonly problem: RowProblem;

  constructor(problem: RowProblem) {
    super(problem.message);
    this.problem = problem;
  }
}

export function refuse(problem: RowProblem): never {
  throw new RowRefused(problem);
}

/** Runs one row's mapping; a refusal becomes the row's problem, anything else is a bug and throws. */
export function readRow(map: () => ImportedLink): RowReading {
  try {
    return { link: withoutAbsent(map()) };
  } catch (error) {
    if (error instanceof RowRefused) return { problem: error.problem };
    throw error;
  }
}

/** Drops keys whose value is undefined, so a link holds only what the file carries. */
function withoutAbsent(link: ImportedLink): ImportedLink {
  return Object.fromEntries(Object.entries(link).filter(([, value]) => value !== undefined)) as unknown as ImportedLink;
}

/** A CSV cell: empty means absent. */
export function cell(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** A destination is what a link is; a row without one holds no link. */
export function required(value: string | undefined, field: string): string {
  if (value === undefined || value.trim() === '') refuse(invalid(field, `${field} is missing`));
  return value;
}

// ISO 8601 as the tools write it: `2026-11-23T05:30:00.000Z`, `2024-03-05T14:22:10+0000` (Bitly),
// `2024-03-05T14:22:10+00:00` (Shlink), and `2024-03-05 14:22:10` without a zone (YOURLS, Kutt on SQLite).
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * Unix milliseconds of a timestamp; a time without a zone is UTC (YOURLS keeps UTC, Kutt on SQLite
 * writes UTC), a date alone is its midnight UTC. Anything else, a date that does not exist
 * (`2024-02-30`) or an offset no zone has (`+99:99`: more than 14 hours, or 60 minutes or more),
 * refuses the row.
 */
export function timestamp(value: string | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  const match = TIMESTAMP.exec(value.trim());
  if (!match) refuse(invalid(field, `${field} is not a date and time (ISO 8601): ${JSON.stringify(value)}`));
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', zone = 'Z'] = match;
  const fields = [Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)] as const;
  const local = Date.UTC(...fields, Number(fraction.padEnd(3, '0').slice(0, 3)));
  const check = new Date(local);
  const exists =
    check.getUTCFullYear() === fields[0] &&
    check.getUTCMonth() === fields[1] &&
    check.getUTCDate() === fields[2] &&
    check.getUTCHours() === fields[3] &&
    check.getUTCMinutes() === fields[4] &&
    check.getUTCSeconds() === fields[5];
  if (!exists) refuse(invalid(field, `${field} is not a date that exists: ${JSON.stringify(value)}`));
  const offset = zoneOffsetMinutes(zone);
  if (offset === undefined) refuse(invalid(field, `${field} has a time zone offset no zone has: ${JSON.stringify(value)}`));
  return local - offset * 60_000;
}

/** Offsets in use run from -12:00 to +14:00 (Kiribati); ISO 8601 allows no minutes past 59. */
const LARGEST_OFFSET_MINUTES = 14 * 60;

/** The zone's offset from UTC in minutes, or undefined for one that no zone has. */
function zoneOffsetMinutes(zone: string): number | undefined {
  if (zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2, 4) || '0');
  const total = hours * 60 + minutes;
  return minutes > 59 || total > LARGEST_OFFSET_MINUTES ? undefined : sign * total;
}

/**
 * The slug of a tool's full short URL: its path without the leading `/` (and without a trailing
 * one), percent-decoded. `bit.ly/abc` (Bitly's `id`, no scheme) reads as `https://bit.ly/abc`.
 * A URL without a path gives no slug; text that is no URL refuses the row.
 */
/** The host of a short URL as a file writes it (with or without scheme); undefined when it is none. */
export function hostOfShortUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`).hostname || undefined;
  } catch {
    return undefined;
  }
}

export function slugOfShortUrl(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    refuse(invalid(field, `${field} is not a URL: ${JSON.stringify(value)}`));
  }
  const path = url.pathname.replace(/^\/+|\/+$/g, '');
  if (path === '') return undefined;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * Tag names another tool joined with `separator` (each tool's own: see its reader), without empty
 * ones, cleaned as foreign tag names are (foreignTagNames).
 */
export function splitTags(value: string | undefined, separator: string): string[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  return foreignTagNames(value.split(separator));
}

/** A JSON item's key that should hold text: null or absent is absent, another type refuses the row. */
export function jsonText(item: Record<string, unknown>, key: string): string | undefined {
  const value = item[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') refuse(invalid(key, `${key} must be text, not ${describe(value)}`));
  return value === '' ? undefined : value;
}

/** A JSON item's key that should hold a list of text (tags). */
export function jsonTextList(item: Record<string, unknown>, key: string): string[] | undefined {
  const value = item[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'string')) {
    refuse(invalid(key, `${key} must be a list of text, not ${describe(value)}`));
  }
  return value.length > 0 ? (value as string[]) : undefined;
}

/** A JSON item must be an object to be a link. */
export function jsonObject(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    refuse({ code: 'VALIDATION_ERROR', message: `the item must be an object, not ${describe(value)}` });
  }
  return value as Record<string, unknown>;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}
