import { CONTROL_CHARACTER, clipChars, LIMITS, LONE_SURROGATE, withoutHiddenCharacters } from '@shortlinks/contract/rules';

const SPACES_AND_CONTROLS = new RegExp(`(?:\\s|${CONTROL_CHARACTER.source})+`, 'gu');
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'gu');

/**
 * A title another tool wrote (Shlink, Bitly, Kutt, YOURLS), made one our API takes: one line of at
 * most LIMITS.titleChars characters. Those tools allow what our rule refuses (a Shlink title with a
 * line break, a Kutt description of up to 2,040 characters, a page title Bitly or YOURLS fetched
 * whole), and a refused title would lose its whole link. So runs of spaces, line breaks and control
 * characters become one space, half a surrogate pair (which JSON can carry) and characters that hide
 * or reorder text (U+202E, U+200B: HIDDEN_CHARACTER, which the API refuses) are dropped, and a long
 * title is cut between whole characters, as the extension does with page titles. Nothing left means
 * no title: the import then names the link after its destination. Our own export is read as written:
 * it never holds such a title.
 */
export function foreignTitle(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const oneLine = withoutHiddenCharacters(value.replace(LONE_SURROGATES, '')).replace(SPACES_AND_CONTROLS, ' ').trim();
  return clipChars(oneLine, LIMITS.titleChars).trimEnd() || undefined;
}

/**
 * Tag names another tool wrote, without the characters that hide or reorder text (which the API
 * refuses in a tag name): a tag is cleaned rather than its link refused. A name with nothing left
 * is dropped.
 */
export function foreignTagNames(names: string[] | undefined): string[] | undefined {
  if (names === undefined) return undefined;
  const cleaned = names.map((name) => withoutHiddenCharacters(name).trim()).filter((name) => name !== '');
  return cleaned.length > 0 ? cleaned : undefined;
}
