/** Length in characters (Unicode code points), as a person counts them, not UTF-16 units. */
export function charCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * The longest start of `text` that is at most `max` characters (code points, as {@link charCount}
 * counts them), cut between whole graphemes, so an emoji or a letter with its accent is never split.
 */
export function clipChars(text: string, max: number): string {
  if (charCount(text) <= max) return text;
  let clipped = '';
  let count = 0;
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)) {
    const size = charCount(segment);
    if (count + size > max) break;
    clipped += segment;
    count += size;
  }
  return clipped;
}

/** Any C0/C1 control character or line break, Unicode's line and paragraph separators included. */
export const CONTROL_CHARACTER = /[\p{Cc}\u2028\u2029]/u;

/** Control characters other than line breaks and tabs (spec: comments keep those). */
export const CONTROL_CHARACTER_EXCEPT_BREAKS = /[^\P{Cc}\n\r\t]/u;

/**
 * Half of a UTF-16 surrogate pair on its own: JSON can carry it (`"\ud800"`), but it is no
 * character, and PostgreSQL's UTF-8 would store U+FFFD instead, so the text saved would differ
 * from the text answered.
 */
export const LONE_SURROGATE = /\p{Cs}/u;
