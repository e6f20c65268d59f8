import { describe, expect, test } from 'vitest';
import { secretParamsOf, withoutParams } from './secret-params.ts';

describe('secretParamsOf', () => {
  test('finds sessions, tokens, keys and codes by name, each once, in the URL’s order', () => {
    expect(secretParamsOf('https://example.com/a?session=abc&page=2&token=x&Session=y&code=42')).toEqual([
      'session',
      'token',
      'Session',
      'code',
    ]);
    expect(secretParamsOf('https://s3.example.com/f?X-Amz-Credential=a&X-Amz-Signature=b&access_token=c&client_secret=d')).toEqual([
      'X-Amz-Credential',
      'X-Amz-Signature',
      'access_token',
      'client_secret',
    ]);
  });

  test('ordinary parameters are not secrets', () => {
    expect(secretParamsOf('https://example.com/search?q=session+tokens&page=2&keyword=x&postcode=1&utm_source=a')).toEqual([]);
    expect(secretParamsOf('not a url')).toEqual([]);
  });
});

describe('withoutParams', () => {
  test('leaves out the named parameters and keeps the rest and the fragment', () => {
    expect(withoutParams('https://example.com/a?session=abc&page=2#top', ['session'])).toBe('https://example.com/a?page=2#top');
    expect(withoutParams('https://example.com/a?token=x', ['token'])).toBe('https://example.com/a');
  });
});
