import { CONTROL_CHARACTER, clipChars, LIMITS, LONE_SURROGATE } from '@shortlinks/contract/rules';

const SPACES_AND_CONTROLS = new RegExp(`(?:\\s|${CONTROL_CHARACTER.source})+`, 'gu');
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'gu');

/**
 * A title another tool wrote (Shlink, Bitly, Kutt, YOURLS), made one our API takes: one line of at
 * most LIMITS.titleChars characters. Those tools allow what our rule refuses (a Shlink title with a
 * line break, a Kutt description of up to 2,040 characters, a page title Bitly or YOURLS fetched
 * whole), and a refused title would lose its whole link. So runs of spaces, line breaks and control
 * characters become one space, half a surrogate pair (which JSON can carry) is dropped, and a long
 * title is cut between whole characters, as the extension does with page titles. Nothing left means
 * no title: the import then names the link after its destination. Our own export is read as written:
 * it never holds such a title.
 */
export function foreignTitle(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const oneLine = value.replace(LONE_SURROGATES, '').replace(SPACES_AND_CONTROLS, ' ').trim();
  return clipChars(oneLine, LIMITS.titleChars).trimEnd() || undefined;
}
