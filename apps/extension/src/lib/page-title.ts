import { CONTROL_CHARACTER, clipChars, LIMITS, LONE_SURROGATE } from '@shortlinks/contract/rules';

const CONTROL_CHARACTERS = new RegExp(CONTROL_CHARACTER.source, 'gu');
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'gu');

/**
 * A page's title as a link title the server accepts (spec: 1 to 200 characters, trimmed, no control
 * characters or line breaks): line breaks and tabs become spaces, runs of spaces one, and a title
 * that is too long is cut between whole characters (an emoji at the limit is left out whole, never
 * halved). A page without a title is named by its host.
 */
export function linkTitleOf(pageTitle: string | undefined, url: string): string {
  const clean = (pageTitle ?? '').replace(CONTROL_CHARACTERS, ' ').replace(LONE_SURROGATES, '').replace(/\s+/gu, ' ').trim();
  return clipChars(clean, LIMITS.titleChars).trim() || new URL(url).hostname;
}
