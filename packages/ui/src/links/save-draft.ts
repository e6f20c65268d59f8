import type { Link, ShortlinksClient } from '@shortlinks/client';
import { createOf, draftProblem, isUnchanged, type LinkDraft, updateOf } from './link-draft.ts';

/** What the host hears about a save, to remember what it needs (the extension: short domains and typed titles). */
export interface SaveEvents {
  onLinkCreated(link: Link): void | Promise<void>;
  onTitleChosen(link: Link): void | Promise<void>;
}

/**
 * Saves the form. A new slug on a link just created (by the extension's popup) is honoured by creating the
 * link again with that slug and then deleting the one with the random slug (a slug never changes
 * after creation); if the slug is refused, the first link stays as it was.
 */
export async function saveDraft(client: ShortlinksClient, link: Link, draft: LinkDraft, fresh: boolean, events: SaveEvents): Promise<Link> {
  const problem = draftProblem(draft);
  if (problem) throw problem;
  if (fresh && draft.slug.trim() !== '' && draft.slug.trim() !== link.slug) {
    const replacement = await client.links.create(createOf(link.destination_url, draft));
    await client.links.delete(link.id);
    await events.onLinkCreated(replacement);
    if (replacement.title !== link.title) await events.onTitleChosen(replacement);
    return replacement;
  }
  const update = updateOf(link, draft);
  if (isUnchanged(update)) return link;
  const saved = await client.links.update(update);
  if (update.title !== undefined) await events.onTitleChosen(saved);
  return saved;
}
