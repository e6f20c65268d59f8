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

/**
 * Characters that show nothing, or change the order in which the text around them is shown
 * (docs/api-decisions.md, "Invisible and direction-changing characters"). In a title or a tag
 * name they make one look like another: `‮lmth.exe` shows as `exe.html`, `pay​pal` as `paypal`.
 * Left out on purpose: the zero-width joiner and non-joiner (U+200D, U+200C), which emoji
 * sequences and Persian and Indic scripts need, the left-to-right, right-to-left and Arabic
 * letter marks (U+200E, U+200F, U+061C), which right-to-left text needs around numbers and
 * punctuation and which cannot reorder letters, and the tag characters of flag emoji.
 */
const HIDDEN_CHARACTER_NAMES: Record<string, string> = {
  '\u00AD': 'SOFT HYPHEN',
  '\u115F': 'HANGUL CHOSEONG FILLER',
  '\u1160': 'HANGUL JUNGSEONG FILLER',
  '\u180E': 'MONGOLIAN VOWEL SEPARATOR',
  '\u200B': 'ZERO WIDTH SPACE',
  '\u202A': 'LEFT-TO-RIGHT EMBEDDING',
  '\u202B': 'RIGHT-TO-LEFT EMBEDDING',
  '\u202C': 'POP DIRECTIONAL FORMATTING',
  '\u202D': 'LEFT-TO-RIGHT OVERRIDE',
  '\u202E': 'RIGHT-TO-LEFT OVERRIDE',
  '\u2060': 'WORD JOINER',
  '\u2061': 'FUNCTION APPLICATION',
  '\u2062': 'INVISIBLE TIMES',
  '\u2063': 'INVISIBLE SEPARATOR',
  '\u2064': 'INVISIBLE PLUS',
  '\u2066': 'LEFT-TO-RIGHT ISOLATE',
  '\u2067': 'RIGHT-TO-LEFT ISOLATE',
  '\u2068': 'FIRST STRONG ISOLATE',
  '\u2069': 'POP DIRECTIONAL ISOLATE',
  '\u206A': 'INHIBIT SYMMETRIC SWAPPING',
  '\u206B': 'ACTIVATE SYMMETRIC SWAPPING',
  '\u206C': 'INHIBIT ARABIC FORM SHAPING',
  '\u206D': 'ACTIVATE ARABIC FORM SHAPING',
  '\u206E': 'NATIONAL DIGIT SHAPES',
  '\u206F': 'NOMINAL DIGIT SHAPES',
  '\u3164': 'HANGUL FILLER',
  '\uFEFF': 'ZERO WIDTH NO-BREAK SPACE',
  '\uFFA0': 'HALFWIDTH HANGUL FILLER',
};

/** Any of the hidden or direction-changing characters above. */
export const HIDDEN_CHARACTER = new RegExp(`[${Object.keys(HIDDEN_CHARACTER_NAMES).join('')}]`, 'u');
const HIDDEN_CHARACTERS = new RegExp(HIDDEN_CHARACTER.source, 'gu');

/** Why `what` is refused for holding a hidden character, naming the first (`U+202E RIGHT-TO-LEFT OVERRIDE`), or undefined. */
export function hiddenCharacterProblem(what: string, text: string): string | undefined {
  const found = HIDDEN_CHARACTER.exec(text)?.[0];
  if (found === undefined) return undefined;
  const code = `U+${found.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}`;
  return `${what} must not contain ${code} ${HIDDEN_CHARACTER_NAMES[found]}: it hides or reorders the text around it, so one ${what} could look like another`;
}

/** The text without hidden or direction-changing characters: how text from other tools is cleaned. */
export function withoutHiddenCharacters(text: string): string {
  return text.replace(HIDDEN_CHARACTERS, '');
}
