import { describe, expect, test } from 'vitest';
import { pageKeyOf } from './page-key.ts';

describe('pageKeyOf', () => {
  test('a page is the same page with other utm_* parameters, or none', () => {
    const page = pageKeyOf('https://example.com/post?id=7');
    expect(pageKeyOf('https://example.com/post?id=7&utm_source=news&utm_campaign=spring')).toBe(page);
    expect(pageKeyOf('https://example.com/post?utm_medium=email&id=7&UTM_ID=3')).toBe(page);
  });

  test('an anchor is the same page; a route after # is another page', () => {
    expect(pageKeyOf('https://example.com/guide#install')).toBe(pageKeyOf('https://example.com/guide'));
    expect(pageKeyOf('https://app.example.com/#/inbox/1')).not.toBe(pageKeyOf('https://app.example.com/#/inbox/2'));
    expect(pageKeyOf('https://app.example.com/#!/inbox/1')).toBe('https://app.example.com/#!/inbox/1');
  });

  test('other parameters still tell pages apart, written alike whatever their encoding', () => {
    expect(pageKeyOf('https://example.com/search?q=a')).not.toBe(pageKeyOf('https://example.com/search?q=b'));
    // The server re-writes a destination when it merges UTM values (spaces as +).
    expect(pageKeyOf('https://example.com/search?q=a%20b&utm_source=x')).toBe(pageKeyOf('https://example.com/search?q=a+b'));
    expect(pageKeyOf('https://Example.COM:443/a?')).toBe('https://example.com/a');
  });
});
