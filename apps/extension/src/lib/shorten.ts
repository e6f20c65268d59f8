import type { Link, ShortlinksClient, UpsertedLink } from '@shortlinks/client';
import { createOf, draftProblem, isUnchanged, type LinkDraft, updateOf } from './link-draft.ts';
import { rememberedTitle, rememberShortUrl, rememberTitle } from './settings.ts';

/**
 * Shortens a page: `links.upsert`, so the same page shortened twice gives the same link (with
 * its current tags, slug and clicks). The page's title is sent as the link's title (the host name
 * for a page without one). Upsert replaces the stored title with it, so when the person had given
 * the link a title of their own in this browser, that title is put back.
 */
export async function shortenPage(client: ShortlinksClient, url: string, pageTitle: string | undefined): Promise<UpsertedLink> {
  const title = (pageTitle ?? '').trim().slice(0, 200) || new URL(url).hostname;
  const link = await client.links.upsert({ title, destination_url: url });
  await rememberShortUrl(link.short_url);
  if (link.created) return link;
  const own = await rememberedTitle(link.id);
  if (own === undefined || own === link.title) return link;
  return { ...(await client.links.update({ id: link.id, title: own })), created: false };
}

/**
 * Saves the form. A new slug on a link just created in this popup is honoured by creating the
 * link again with that slug and then deleting the one with the random slug (a slug never changes
 * after creation); if the slug is refused, the first link stays as it was.
 */
export async function saveDraft(client: ShortlinksClient, link: Link, draft: LinkDraft, fresh: boolean): Promise<Link> {
  const problem = draftProblem(draft);
  if (problem) throw problem;
  if (fresh && draft.slug.trim() !== '' && draft.slug.trim() !== link.slug) {
    const replacement = await client.links.create(createOf(link.destination_url, draft));
    await client.links.delete(link.id);
    await rememberShortUrl(replacement.short_url);
    if (replacement.title !== link.title) await rememberTitle(replacement.id, replacement.title);
    return replacement;
  }
  const update = updateOf(link, draft);
  if (isUnchanged(update)) return link;
  const saved = await client.links.update(update);
  if (update.title !== undefined) await rememberTitle(saved.id, saved.title);
  return saved;
}
