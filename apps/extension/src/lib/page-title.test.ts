import { charCount, LIMITS, titleField } from '@shortlinks/contract';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { linkTitleOf } from './page-title.ts';

describe('linkTitleOf: a page title as a link title', () => {
  test('an emoji at the 200-character limit is left out whole, not halved', () => {
    const title = `${'a'.repeat(199)}🚀 launch`;
    expect(title.slice(0, 200)).not.toBe(`${'a'.repeat(199)}🚀`); // what a UTF-16 cut gives: half a surrogate pair
    expect(linkTitleOf(title, 'https://example.com/')).toBe(`${'a'.repeat(199)}🚀`);
    expect(linkTitleOf(`${'a'.repeat(200)}🚀`, 'https://example.com/')).toBe('a'.repeat(200));
  });

  test('an emoji made of several characters is kept whole or left out whole', () => {
    const family = '👨‍👩‍👧'; // 5 code points
    expect(linkTitleOf(`${'a'.repeat(197)}${family}`, 'https://example.com/')).toBe('a'.repeat(197));
    expect(linkTitleOf(`${'a'.repeat(195)}${family}`, 'https://example.com/')).toBe(`${'a'.repeat(195)}${family}`);
  });

  test('line breaks, tabs and control characters become single spaces; the host names a page without a title', () => {
    expect(linkTitleOf('  Spring\n\tlaunch\u0007 \u2028 news ', 'https://example.com/')).toBe('Spring launch news');
    expect(linkTitleOf(undefined, 'https://www.example.com/a')).toBe('www.example.com');
    expect(linkTitleOf(' \n ', 'https://www.example.com/a')).toBe('www.example.com');
  });

  test('characters that hide or reorder text are dropped; the joiners emoji need stay', () => {
    expect(linkTitleOf('\u202AVideo\u202C \u200Btitle \u202Egnp', 'https://example.com/')).toBe('Video title gnp');
    expect(linkTitleOf('👨\u200D👩\u200D👧', 'https://example.com/')).toBe('👨\u200D👩\u200D👧');
  });

  test('whatever the page title, the server accepts the link title', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (pageTitle) => {
        const title = linkTitleOf(pageTitle, 'https://example.com/');
        expect(charCount(title)).toBeLessThanOrEqual(LIMITS.titleChars);
        expect(titleField.safeParse(title).success, JSON.stringify(title)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
