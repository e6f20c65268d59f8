import { isReservedSlug, LIMITS, RESERVED_SLUGS } from '@shortlinks/contract';
import { describe, expect, test } from 'vitest';
import { skeleton } from './destinations/look-alikes.ts';
import { randomSlug, SLUG_ALPHABET } from './ids.ts';

describe('random slugs', () => {
  test('are 6 characters without look-alikes (no 0 O o, 1 I l, 2 Z, 5 S s, u v)', () => {
    const slugs = Array.from({ length: 2_000 }, () => randomSlug());
    for (const slug of slugs) expect(slug).toMatch(new RegExp(`^[${SLUG_ALPHABET}]{${LIMITS.randomSlugChars}}$`));
    expect(slugs.join('')).not.toMatch(/[0125IOSZlosuv]/);
  });

  test('no two characters of the alphabet look alike, by Unicode’s confusables', () => {
    const looks = [...SLUG_ALPHABET].map((character) => skeleton(character));
    const clashes = [...SLUG_ALPHABET].filter((_, index) => looks.indexOf(looks[index] as string) !== index);
    expect(clashes).toEqual([]);
    // Both examples of the report are gone: `pTjFl7` (l) and `I6jm6m` (I).
    expect(SLUG_ALPHABET).not.toMatch(/[lI]/);
  });

  test('are never a reserved word, though the alphabet can spell one', () => {
    const spellable = [...RESERVED_SLUGS].filter(
      (word) => word.length === LIMITS.randomSlugChars && [...word].every((c) => SLUG_ALPHABET.includes(c)),
    );
    expect(spellable).toEqual(['readyz']);
    const draws = ['readyz', 'READYZ'.toLowerCase(), 'Tk7mQ9'];
    expect(randomSlug(() => draws.shift() as string)).toBe('Tk7mQ9');
    expect(isReservedSlug('readyz')).toBe(true);
  });
});
