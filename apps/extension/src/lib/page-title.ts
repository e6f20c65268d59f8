import { CONTROL_CHARACTER, clipChars, LIMITS, LONE_SURROGATE, withoutHiddenCharacters } from '@shortlinks/contract/rules';

const CONTROL_CHARACTERS = new RegExp(CONTROL_CHARACTER.source, 'gu');
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'gu');

/**
 * A page's title as a link title the server accepts (spec: 1 to 200 characters, trimmed, no control
 * characters or line breaks): line breaks and tabs become spaces, runs of spaces one, characters
 * that hide or reorder text (which the server refuses in a title: U+202E, U+200B, …) are dropped,
 * and a title that is too long is cut between whole characters (an emoji at the limit is left out
 * whole, never halved). A page without a title is named by its host.
 */
export function linkTitleOf(pageTitle: string | undefined, url: string): string {
  const clean = withoutHiddenCharacters(pageTitle ?? '')
    .replace(CONTROL_CHARACTERS, ' ')
    .replace(LONE_SURROGATES, '')
    .replace(/\s+/gu, ' ')
    .trim();
  return clipChars(clean, LIMITS.titleChars).trim() || new URL(url).hostname;
}
