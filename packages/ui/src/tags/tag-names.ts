import type { TagSummary } from '@shortlinks/contract';

/**
 * Adds a typed tag name to the chosen ones: trimmed, spelt like the existing tag it matches
 * (the server matches names ignoring case), and never twice.
 */
export function addTagName(selected: string[], typed: string, available: Pick<TagSummary, 'name'>[]): string[] {
  const name = typed.trim().replace(/\s+/g, ' ');
  if (name === '') return selected;
  const existing = available.find((tag) => tag.name.toLowerCase() === name.toLowerCase());
  const canonical = existing?.name ?? name;
  if (selected.some((other) => other.toLowerCase() === canonical.toLowerCase())) return selected;
  return [...selected, canonical];
}

const names = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/** Tags in the order a person looks for them: by name, ignoring case and accents, "Q2" before "Q10". */
export function sortedByName<T extends Pick<TagSummary, 'name'>>(tags: readonly T[]): T[] {
  return [...tags].sort((a, b) => names.compare(a.name, b.name));
}

/** A name as matching reads it: lower case, without accents ("Émile" is found by "emile"). */
const folded = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .toLowerCase();

/**
 * The tags a typed text may mean, best first: names that start with it, then names that contain it
 * (ignoring case and accents), each by name. Nothing typed: every tag, by name.
 */
export function tagsMatching<T extends Pick<TagSummary, 'name'>>(tags: readonly T[], typed: string): T[] {
  const query = folded(typed.trim());
  const sorted = sortedByName(tags);
  if (query === '') return sorted;
  const starting = sorted.filter((tag) => folded(tag.name).startsWith(query));
  const containing = sorted.filter((tag) => !folded(tag.name).startsWith(query) && folded(tag.name).includes(query));
  return [...starting, ...containing];
}
