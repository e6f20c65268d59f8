import { storable } from '../database/database.ts';
import { AppError } from '../errors.ts';

/** The answer to an `{id}` that names nothing, by what it names. */
const UNKNOWN = {
  link: () => new AppError('LINK_NOT_FOUND'),
  tag: () => new AppError('TAG_NOT_FOUND'),
  domain: () => new AppError('DOMAIN_NOT_FOUND'),
  webhook: () => new AppError('WEBHOOK_NOT_FOUND'),
  delivery: () => new AppError('WEBHOOK_DELIVERY_NOT_FOUND'),
  key: () => new AppError('KEY_NOT_FOUND'),
} as const;

/**
 * The `{id}` of a path, as the lookup it names takes it; every path id of the API passes through
 * here. Both transports hand it over as the string meant (REST's router decodes the path's
 * percent-escapes: `ext_a%2Fb` is `ext_a/b`). An id PostgreSQL cannot hold (NUL, half a surrogate
 * pair: see `storable`) names nothing, and answers as any unknown id does before a query is made.
 */
export function pathParam(names: keyof typeof UNKNOWN, value: string): string {
  if (!storable(value)) throw UNKNOWN[names]();
  return value;
}
