import type { Context } from './context.ts';
import { AppError } from './errors.ts';
import { storable } from './services/database.ts';

/** The answer to an `{id}` that names nothing, by what it names. */
const UNKNOWN = {
  link: () => new AppError('LINK_NOT_FOUND'),
  tag: () => new AppError('TAG_NOT_FOUND'),
} as const;

/**
 * The `{id}` of a path, as the lookup it names takes it; every path id of the API passes through
 * here. trpc-to-openapi hands REST path parameters over still URI-encoded (`ext_a%2Fb`), so they
 * are decoded, for REST only: over tRPC the value is the string sent. An id PostgreSQL cannot hold
 * (NUL, half a surrogate pair: see `storable`) names nothing, and answers as any unknown id does
 * before a query is made.
 */
export function pathParam(ctx: Pick<Context, 'transport'>, names: keyof typeof UNKNOWN, value: string): string {
  const id = ctx.transport === 'rest' ? decoded(value) : value;
  if (!storable(id)) throw UNKNOWN[names]();
  return id;
}

function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value; // A malformed escape names nothing; the lookup then finds no match.
  }
}
