import { LIMITS } from '@shortlinks/contract';
import { customAlphabet } from 'nanoid';

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const idBody = customAlphabet(ALPHANUMERIC, 16);
const slugBody = customAlphabet(ALPHANUMERIC, LIMITS.randomSlugChars);

/** A new resource id such as `lnk_4hG7Qx2LpZ0aB3cD` (95 random bits). */
export function newId(prefix: 'acc' | 'key' | 'lnk' | 'tag'): string {
  return `${prefix}_${idBody()}`;
}

/** A random 6-character slug (spec: "a random 6-character slug is assigned"). */
export function randomSlug(): string {
  return slugBody();
}
