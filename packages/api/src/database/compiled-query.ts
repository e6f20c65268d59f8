import type { CompiledQuery } from 'kysely';

/** Stand-ins for a request's values in a query compiled once (building it with Kysely costs more than running it). */
export const STAND_IN = {
  account: '\u0000account',
  ref: '\u0000ref',
  limit: -1_000_001,
  offset: -1_000_002,
} as const;

/** A query compiled once with {@link STAND_IN}s as its values, with this request's values in their place. */
export function filledIn<R>(compiled: CompiledQuery<R>, values: readonly [standIn: unknown, value: unknown][]): CompiledQuery<R> {
  const parameters = compiled.parameters.map((parameter) => {
    for (const [standIn, value] of values) if (parameter === standIn) return value;
    return parameter;
  });
  return { ...compiled, parameters };
}
