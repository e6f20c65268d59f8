import { draftProblem, EMPTY_DRAFT } from '@shortlinks/ui';
import { describe, expect, test } from 'vitest';
import { createBodyOf, titleFromDestination } from './new-link.ts';

describe('the New link form', () => {
  test('an empty title becomes the destination’s host and path', () => {
    expect(titleFromDestination('https://example.com/launch/')).toBe('example.com/launch');
    expect(titleFromDestination('https://docs.example.com/')).toBe('docs.example.com');
    expect(titleFromDestination('https://example.com:8443/a?utm_source=x')).toBe('example.com:8443/a');
  });

  test('sends only what was filled in, trimmed', () => {
    expect(createBodyOf({ ...EMPTY_DRAFT, destination: ' https://example.com/a ' })).toEqual({
      title: 'example.com/a',
      destination_url: 'https://example.com/a',
    });
    expect(
      createBodyOf({
        ...EMPTY_DRAFT,
        destination: 'https://example.com/a',
        title: ' Launch ',
        slug: ' spring ',
        tags: ['Work', 'New'],
        comments: ' note ',
      }),
    ).toEqual({
      title: 'Launch',
      destination_url: 'https://example.com/a',
      slug: 'spring',
      tag_names: ['Work', 'New'],
      comments: 'note',
    });
  });

  test('UTM parameters and an expiry with its fallback are sent on creation', () => {
    const expiresAt = '2031-05-06T07:08';
    expect(
      createBodyOf({
        ...EMPTY_DRAFT,
        destination: 'https://example.com/a',
        utm: { ...EMPTY_DRAFT.utm, source: 'newsletter', campaign: 'spring' },
        expiresAt,
        expirationUrl: 'https://example.com/over',
      }),
    ).toMatchObject({
      utm: { source: 'newsletter', campaign: 'spring' },
      expires_at: new Date(expiresAt).getTime(),
      expiration_url: 'https://example.com/over',
    });
  });

  test('an address typed without a scheme is created with https://, and titled after it', () => {
    expect(createBodyOf({ ...EMPTY_DRAFT, destination: 'example.com/x' })).toEqual({
      title: 'example.com/x',
      destination_url: 'https://example.com/x',
    });
    expect(draftProblem({ ...EMPTY_DRAFT, destination: 'example.com/x' })).toBeUndefined();
  });

  test('a missing destination is pointed out at its field before anything is sent', () => {
    expect(draftProblem(EMPTY_DRAFT)).toEqual({ field: 'destination_url', message: 'Enter the address the short link leads to.' });
  });
});
