import type { Link, ShortlinksClient } from '@shortlinks/client';
import { createOf, draftProblem, isUnchanged, type LinkDraft, newSlugOf, slugChangeProblem, updateOf } from './link-draft.ts';

/** What the host hears about a save, to remember what it needs (the extension: short domains and typed titles). */
export interface SaveEvents {
  onLinkCreated(link: Link): void | Promise<void>;
  onTitleChosen(link: Link): void | Promise<void>;
}

/** What a save did: the link as stored now, and whether anything changed or the link moved to a new slug. */
export interface SaveResult {
  link: Link;
  outcome: 'unchanged' | 'updated' | 'moved';
  /** Something the person should know about a save that went through (see handOverExternalId). */
  notice?: string;
}

/**
 * Saves the form. A slug is fixed once a link exists, so a new slug — allowed on a link created a
 * moment ago, or after the person confirmed moving the link — moves the link: see {@link moveToSlug}.
 * Anything else is one `links.update` of the fields that changed.
 */
export async function saveDraft(
  client: ShortlinksClient,
  link: Link,
  draft: LinkDraft,
  slugMayChange: boolean,
  events: SaveEvents,
): Promise<SaveResult> {
  const problem = draftProblem(draft) ?? (slugMayChange ? slugChangeProblem(link, draft) : undefined);
  if (problem) throw problem;
  if (slugMayChange && newSlugOf(link, draft) !== undefined) {
    return { ...(await moveToSlug(client, link, draft, events)), outcome: 'moved' };
  }
  const update = updateOf(link, draft);
  if (isUnchanged(update)) return { link, outcome: 'unchanged' };
  const saved = await client.links.update(update);
  if (update.title !== undefined) await events.onTitleChosen(saved);
  return { link: saved, outcome: 'updated' };
}

/**
 * Moves a link to a new slug: creates it again under that slug with the draft's title, tags, UTM,
 * expiry and comments, then deletes the old link, whose short URL stops working (its clicks stay
 * in the account's statistics). A refused slug (`SLUG_TAKEN`, `SLUG_INVALID`) fails the first step,
 * so nothing changes; if the old link cannot be deleted, the new one is taken back.
 */
export async function moveToSlug(
  client: ShortlinksClient,
  link: Link,
  draft: LinkDraft,
  events: SaveEvents,
): Promise<{ link: Link; notice?: string }> {
  const created = await client.links.create(createOf(link, draft));
  try {
    await client.links.delete(link.id);
  } catch (error) {
    await client.links.delete(created.id).catch(() => undefined);
    throw error;
  }
  const moved = link.external_id === undefined ? { link: created } : await handOverExternalId(client, created, link.external_id);
  await events.onLinkCreated(moved.link);
  if (moved.link.title !== link.title) await events.onTitleChosen(moved.link);
  return moved;
}

/**
 * Gives the moved link the old one's external id. Only one live link may hold an external id, so
 * this waits until the old link is deleted; `links.update` cannot set one, `links.upsert` can, on
 * the live link with exactly this destination: the new one, unless an older link of the account
 * has the very same address (then upsert's rule gives the id to the older link, and the form says so).
 */
async function handOverExternalId(client: ShortlinksClient, created: Link, externalId: string): Promise<{ link: Link; notice?: string }> {
  const { created: _, ...holder } = await client.links.upsert({
    title: created.title,
    destination_url: created.destination_url,
    external_id: externalId,
  });
  if (holder.id === created.id) return { link: holder };
  return {
    link: created,
    notice: `Its external id went to ${holder.short_url}, an older link with the same address.`,
  };
}
