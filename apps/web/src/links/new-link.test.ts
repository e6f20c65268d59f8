import { describe, expect, test } from 'vitest';
import { createBodyOf, EMPTY_DRAFT, newLinkProblem, titleFromDestination } from './new-link.ts';

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

  test('a missing or schemeless destination is pointed out at its field before anything is sent', () => {
    expect(newLinkProblem(EMPTY_DRAFT)).toEqual({ field: 'destination_url', message: 'Enter the address the short link leads to.' });
    expect(newLinkProblem({ ...EMPTY_DRAFT, destination: 'example.com' })?.field).toBe('destination_url');
    expect(newLinkProblem({ ...EMPTY_DRAFT, destination: 'HTTPS://example.com' })).toBeUndefined();
  });
});
