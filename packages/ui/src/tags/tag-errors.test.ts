import { ShortlinksError } from '@shortlinks/client';
import { describe, expect, test } from 'vitest';
import { tagErrorOf } from './tag-errors.ts';

describe('tagErrorOf', () => {
  test('a taken name and a refused name are shown at the name', () => {
    expect(tagErrorOf(new ShortlinksError('TAG_NAME_TAKEN', 'taken', 409, 'name'))).toEqual({
      name: 'Another tag already has this name (names ignore case).',
    });
    expect(tagErrorOf(new ShortlinksError('VALIDATION_ERROR', 'name must be at most 50 characters', 422, 'name'))).toEqual({
      name: 'The name must be at most 50 characters.',
    });
  });

  test('the tag limit, a vanished tag and a lost connection are shown for the whole row', () => {
    expect(tagErrorOf(new ShortlinksError('PLAN_LIMIT_REACHED', 'limit', 403)).form).toMatch(/no more tags/);
    expect(tagErrorOf(new ShortlinksError('TAG_NOT_FOUND', 'gone', 404)).form).toMatch(/no longer exists/);
    expect(tagErrorOf(new ShortlinksError('NETWORK_ERROR', 'down', 0)).form).toMatch(/could not be reached/);
  });
});
