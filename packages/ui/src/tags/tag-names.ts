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
