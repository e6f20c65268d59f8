import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { fromZodError } from './errors.ts';

const schema = z.strictObject({ title: z.string().optional() });

/** The AppError for an input the strict schema refuses. */
function refusalOf(input: unknown) {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error('expected a refusal');
  return fromZodError(parsed.error, input);
}

describe('fromZodError: unknown fields', () => {
  test('every unknown name, those every object inherits included, is refused by its own name', () => {
    for (const name of ['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf', 'colour']) {
      const refusal = refusalOf(JSON.parse(`{"${name}":1}`));
      expect(refusal.toBody(), name).toEqual({ code: 'VALIDATION_ERROR', message: `Unknown field "${name}"`, field: name });
    }
  });

  test('fields sent where they cannot be changed keep their own message', () => {
    expect(refusalOf({ slug: 'x' }).message).toBe('slug cannot be changed after creation');
    expect(refusalOf({ external_id: 'x' }).message).toBe('external_id cannot be changed here; POST /links/upsert can set it');
  });
});
