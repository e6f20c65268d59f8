/** Length in characters (Unicode code points), as a person counts them, not UTF-16 units. */
export function charCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
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
