import { describe, expect, test } from 'vitest';
import { asciiUrl, mergeUtm } from './utm.ts';

describe('mergeUtm', () => {
  test('returns the URL exactly as sent when there is nothing to merge', () => {
    expect(mergeUtm('https://example.com', undefined)).toBe('https://example.com');
    expect(mergeUtm('https://example.com/a?b=1', {})).toBe('https://example.com/a?b=1');
    expect(mergeUtm('https://example.com/a', { source: '' })).toBe('https://example.com/a');
  });

  test('adds utm parameters in a fixed order and replaces those of the same name', () => {
    expect(mergeUtm('https://example.com/p?utm_campaign=old&x=1', { term: 't', campaign: 'new', source: 's' })).toBe(
      'https://example.com/p?utm_campaign=new&x=1&utm_source=s&utm_term=t',
    );
  });

  test('encodes values', () => {
    expect(mergeUtm('https://example.com/', { source: 'a b&c' })).toBe('https://example.com/?utm_source=a+b%26c');
  });

  test('keeps the fragment after the query', () => {
    expect(mergeUtm('https://example.com/p#top', { medium: 'm' })).toBe('https://example.com/p?utm_medium=m#top');
  });
});

describe('asciiUrl', () => {
  test('stores internationalised host names as punycode', () => {
    expect(asciiUrl('https://bücher.example/ü')).toBe('https://xn--bcher-kva.example/%C3%BC');
  });
});
