import type { Context } from './context.ts';

/**
 * A path parameter's value. trpc-to-openapi hands REST path parameters over still URI-encoded
 * (`ext_a%2Fb`), so they are decoded here, for REST only: over tRPC the value is the string sent.
 */
export function pathParam(ctx: Pick<Context, 'transport'>, value: string): string {
  if (ctx.transport !== 'rest') return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value; // A malformed escape names nothing; the lookup then finds no match.
  }
}
