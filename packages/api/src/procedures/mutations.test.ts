import { expect, test } from 'vitest';
import { everyProcedureMeta, procedureType } from './procedure-meta.ts';

// authedProcedure gives the step that forgets the account's links after a mutation (trpc.ts,
// cache-coherence.ts) to procedures REST maps to a writing method, so GETs skip it: a mutation
// mapped to GET would answer without it, and its caller could read its own write undone.
test('every mutation is mapped to a writing method, so this process forgets what it may have changed', () => {
  const procedures = everyProcedureMeta().map(([path, meta]) => ({ path, method: meta.openapi.method, type: procedureType(path) }));
  expect(procedures.filter(({ type }) => type === 'mutation').length).toBeGreaterThan(0);
  expect(procedures.filter(({ type, method }) => type === 'mutation' && method === 'GET')).toEqual([]);
});
