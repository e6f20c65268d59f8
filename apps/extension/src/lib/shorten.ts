import type { ShortlinksClient, UpsertedLink } from '@shortlinks/client';
import { linkTitleOf } from './page-title.ts';
import { rememberedTitle, rememberShortUrl } from './settings.ts';

/**
 * Shortens a page: `links.upsert`, so the same page shortened twice gives the same link (with
 * its current tags, slug and clicks). The page's title is sent as the link's title (the host name
 * for a page without one). Upsert replaces the stored title with it, so when the person had given
 * the link a title of their own in this browser, that title is put back.
 */
export async function shortenPage(client: ShortlinksClient, url: string, pageTitle: string | undefined): Promise<UpsertedLink> {
  const link = await client.links.upsert({ title: linkTitleOf(pageTitle, url), destination_url: url });
  await rememberShortUrl(link.short_url);
  if (link.created) return link;
  const own = await rememberedTitle(link.id);
  if (own === undefined || own === link.title) return link;
  return { ...(await client.links.update({ id: link.id, title: own })), created: false };
}
