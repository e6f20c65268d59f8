import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { MAX_JSON_DEPTH, nestsTooDeep } from './json-depth.ts';

/** Levels of arrays and objects in a parsed value (a scalar is 0). */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Object.values(value as Record<string, unknown>);
  return 1 + Math.max(0, ...children.map(depthOf));
}

/** Wraps a value in arrays or objects, chosen by `shapes`, with `text` beside it at every level. */
function wrap(value: unknown, shapes: boolean[], text: string): unknown {
  return shapes.reduce<unknown>((inner, asArray) => (asArray ? [text, inner, text] : { [text]: text, [`${text}.`]: inner }), value);
}

describe('nestsTooDeep', () => {
  test(`${MAX_JSON_DEPTH} levels pass, ${MAX_JSON_DEPTH + 1} do not`, () => {
    const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    expect(nestsTooDeep(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsTooDeep(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(nestsTooDeep(`{"a":${nested(MAX_JSON_DEPTH - 1)}}`)).toBe(false);
    expect(nestsTooDeep(`{"a":${nested(MAX_JSON_DEPTH)}}`)).toBe(true);
  });

  test('a route may allow more levels (a bulk body holds its items two levels down)', () => {
    const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    expect(nestsTooDeep(nested(MAX_JSON_DEPTH + 2), MAX_JSON_DEPTH + 2)).toBe(false);
    expect(nestsTooDeep(nested(MAX_JSON_DEPTH + 3), MAX_JSON_DEPTH + 2)).toBe(true);
  });

  test('brackets in strings, escaped quotes and escaped backslashes are text', () => {
    const strings = JSON.stringify(['[[[[', '"[[[', '\\', '{{{{\\"{{']).slice(1, -1);
    const nested = (levels: number) => `${'['.repeat(levels)}${strings}${']'.repeat(levels)}`;
    expect(JSON.parse(nested(MAX_JSON_DEPTH))).toBeDefined();
    expect(nestsTooDeep(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestsTooDeep(nested(MAX_JSON_DEPTH + 1))).toBe(true);
  });

  test('agrees with the depth of the parsed value, for any JSON', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 2 }),
        fc.array(fc.boolean(), { maxLength: MAX_JSON_DEPTH + 4 }),
        fc.array(fc.constantFrom('[', ']', '{', '}', '"', '\\', ':', ',', 'a', '\u2028'), { maxLength: 12 }).map((chars) => chars.join('')),
        (value, shapes, text) => {
          // Keys and strings full of brackets, quotes and backslashes at every level.
          const json = JSON.stringify(wrap(value, shapes, text));
          expect(nestsTooDeep(json)).toBe(depthOf(JSON.parse(json)) > MAX_JSON_DEPTH);
        },
      ),
      { numRuns: 300 },
    );
  });
});
