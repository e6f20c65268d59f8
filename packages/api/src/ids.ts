import { isReservedSlug, LIMITS } from '@shortlinks/contract';
import { customAlphabet } from 'nanoid';

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * The characters of random slugs: letters and digits without those a reader confuses when a short
 * link is read aloud, printed or retyped (0 O o, 1 I l, 2 Z, 5 S s, u v). This is nanoid-dictionary's
 * `nolookalikes`: 49 characters, so 6 of them make 49⁶ ≈ 13.8 billion slugs (docs/api-decisions.md).
 */
export const SLUG_ALPHABET = '346789ABCDEFGHJKLMNPQRTUVWXYabcdefghijkmnpqrtwxyz';

const idBody = customAlphabet(ALPHANUMERIC, 16);
const slugBody = customAlphabet(SLUG_ALPHABET, LIMITS.randomSlugChars);

/** A new resource id such as `lnk_4hG7Qx2LpZ0aB3cD` (95 random bits). */
export function newId(prefix: 'acc' | 'aud' | 'dom' | 'key' | 'lnk' | 'tag' | 'wh' | 'evt' | 'whd'): string {
  return `${prefix}_${idBody()}`;
}

/**
 * A random 6-character slug (spec: "a random 6-character slug is assigned"), never a reserved
 * word (`readyz` can be drawn from the alphabet). `draw` is the random source (tests give their own).
 */
export function randomSlug(draw: () => string = slugBody): string {
  for (;;) {
    const slug = draw();
    if (!isReservedSlug(slug)) return slug;
  }
}
