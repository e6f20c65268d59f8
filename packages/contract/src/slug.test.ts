import { describe, expect, test } from 'vitest';
import { RESERVED_SLUGS, slugProblem } from './slug.ts';

describe('slugProblem', () => {
  test.each(['a', 'A-b_9', 'x'.repeat(64)])('accepts %s', (slug) => {
    expect(slugProblem(slug)).toBeUndefined();
  });

  test.each(['', 'x'.repeat(65), 'has space', 'dot.ted', 'slash/ed', 'ümlaut', 'emoji🙂'])('refuses %j', (slug) => {
    expect(slugProblem(slug)).toEqual(expect.any(String));
  });

  test('refuses every path the server serves, in any case', () => {
    for (const path of ['api', 'trpc', 'docs', 'healthz', 'readyz']) {
      expect(RESERVED_SLUGS.has(path)).toBe(true);
      expect(slugProblem(path.toUpperCase())).toMatch(/reserved/);
    }
  });
});
