import { LIMITS } from '@shortlinks/contract';
import { procedureMeta } from './procedure-meta.ts';

/** A bulk call spends one more unit of its key's rate limit for every this many of its items. */
export const ITEMS_PER_UNIT = 10;

/**
 * An import spends one more unit for every this many bytes of its file: about 1,000 rows of our
 * CSV export, so a file weighs about what bulk calls of its rows would weigh per hundred (one
 * per ten links), and the default cap (10 MiB) weighs 41, within every plan's minute.
 */
export const FILE_BYTES_PER_UNIT = 256 * 1024;

/** One procedure call of a request: a REST request is one, a tRPC batch up to ten. */
export interface ProcedureCall {
  /** The procedure's path in the router (`links.bulkCreate`). */
  path: string;
  /** Its input as sent, not yet checked. */
  input: unknown;
}

/**
 * What one call spends of its key's rate limit, so that limits measure work, not envelopes
 * (docs/security.md, "Rate limits"): 1, and for a bulk call 1 more per started ten of its items,
 * 1 + ceil(items / 10), so 11 for 100 links. REST and tRPC weigh the same call alike.
 *
 * An import spends 1 and 1 more per started {@link FILE_BYTES_PER_UNIT} bytes of its file.
 *
 * Read from the input as sent, before its schema checks it: a list longer than a bulk call takes
 * is weighed as the longest one (it is refused before any work), anything that is no list as none.
 */
export function callWeight({ path, input }: ProcedureCall): number {
  const meta = procedureMeta(path);
  if (meta?.file) return 1 + Math.ceil(fileBytes(input, meta.file) / FILE_BYTES_PER_UNIT);
  const field = meta?.items;
  if (!field || typeof input !== 'object' || input === null) return 1;
  const items = Math.min(itemCount((input as Record<string, unknown>)[field]), LIMITS.bulkItems);
  return 1 + Math.ceil(items / ITEMS_PER_UNIT);
}

/** The weight of every call a request carries. */
export const requestWeight = (calls: readonly ProcedureCall[]): number => calls.reduce((sum, call) => sum + callWeight(call), 0);

/** A list's items; REST's `ids=a,b,c` is one text of comma-separated ids. */
function itemCount(list: unknown): number {
  if (Array.isArray(list)) return list.length;
  if (typeof list === 'string') return list.split(',').filter((id) => id.trim() !== '').length;
  return 0;
}

/** The UTF-8 bytes of a file sent in `input[field]`; none when it is no text. */
function fileBytes(input: unknown, field: string): number {
  const file = typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[field] : undefined;
  return typeof file === 'string' ? Buffer.byteLength(file) : 0;
}
