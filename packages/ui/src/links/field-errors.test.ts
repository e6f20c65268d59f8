import { ShortlinksError } from '@shortlinks/client';
import { describe, expect, test } from 'vitest';
import { DEFAULT_MESSAGES } from '../host-messages.ts';
import { formErrorOf, humanise } from './field-errors.ts';

describe('formErrorOf', () => {
  test('SLUG_TAKEN is shown under the slug in plain words', () => {
    expect(formErrorOf(new ShortlinksError('SLUG_TAKEN', 'slug is already in use', 409, 'slug'))).toEqual({
      field: 'slug',
      message: 'This slug is already taken. Choose another one.',
    });
  });

  test('a validation error goes to the field the server names, in the form’s words', () => {
    expect(formErrorOf(new ShortlinksError('VALIDATION_ERROR', 'title must not be empty', 422, 'title'))).toEqual({
      field: 'title',
      message: 'The title must not be empty.',
    });
    expect(formErrorOf(new ShortlinksError('VALIDATION_ERROR', 'tag_names may hold at most 10 tags', 422, 'tag_names'))).toEqual({
      field: 'tags',
      message: 'Tags may hold at most 10 tags.',
    });
    expect(formErrorOf(new ShortlinksError('VALIDATION_ERROR', 'expires_at must be in the future', 422, 'expires_at')).field).toBe(
      'expires_at',
    );
  });

  test('the tag limit is shown at the tags, the link limit and lost connections for the whole form', () => {
    expect(formErrorOf(new ShortlinksError('PLAN_LIMIT_REACHED', 'limit', 403)).field).toBe('tags');
    expect(formErrorOf(new ShortlinksError('LINK_LIMIT_REACHED', 'limit', 403)).field).toBe('form');
    expect(formErrorOf(new ShortlinksError('NETWORK_ERROR', 'fetch failed', 0))).toEqual({
      field: 'form',
      message: expect.stringContaining('could not be reached'),
    });
    expect(formErrorOf(new TypeError('boom')).field).toBe('form');
  });

  test('an invalid slug is explained once, in the server’s own words', () => {
    expect(formErrorOf(new ShortlinksError('SLUG_INVALID', 'slug may contain only letters, digits, "-" and "_"', 422, 'slug'))).toEqual({
      field: 'slug',
      message: 'The slug may contain only letters, digits, "-" and "_".',
    });
    expect(formErrorOf(new ShortlinksError('SLUG_INVALID', '"docs" is a reserved word and cannot be used as a slug', 422, 'slug'))).toEqual(
      {
        field: 'slug',
        message: '"docs" is a reserved word and cannot be used as a slug.',
      },
    );
  });

  test('errors mended elsewhere name no place by default; a host gives its own words', () => {
    const refused = new ShortlinksError('UNAUTHORIZED', 'bad key', 401);
    const defaults = [refused, new ShortlinksError('NETWORK_ERROR', 'x', 0), new ShortlinksError('PLAN_LIMIT_REACHED', 'x', 403)].map(
      (error) => formErrorOf(error).message,
    );
    for (const message of defaults) expect(message).not.toMatch(/extension|options|Manage/);
    expect(formErrorOf(refused, { ...DEFAULT_MESSAGES, keyRefused: 'Check it in the extension’s options.' }).message).toBe(
      'Check it in the extension’s options.',
    );
  });

  test('an unknown field falls back to the whole form', () => {
    expect(formErrorOf(new ShortlinksError('VALIDATION_ERROR', 'external_id is too long', 422, 'external_id')).field).toBe('form');
  });
});

describe('humanise', () => {
  test('names API fields as the form labels them and ends the sentence', () => {
    expect(humanise('utm.source must be at most 200 characters')).toBe('UTM source must be at most 200 characters.');
    expect(humanise('destination_url must not point to localhost')).toBe('The page address must not point to localhost.');
    expect(humanise('Already a sentence.')).toBe('Already a sentence.');
  });
});
