import { type Link, type ShortlinksClient, ShortlinksError, type UpsertedLink } from '@shortlinks/client';
import { pageKeyOf } from './page-key.ts';
import { browserPageLinks, type PageLinks } from './page-links.ts';
import { linkTitleOf } from './page-title.ts';
import { secretParamsOf, withoutParams } from './secret-params.ts';
import { rememberedTitle, rememberShortUrl } from './settings.ts';

/** How many of the account's newest links are looked through for a page this browser does not remember. */
const RECENT_LINKS = 100;

/**
 * The page's link, found without creating one (the popup opens on it; docs/extension.md):
 *
 * 1. the link this browser made for the page, checked with `links.get` (it may have been deleted,
 *    or moved to another address, since);
 * 2. else the newest of the account's latest 100 links that shows this page: its destination is the
 *    page's address but for `utm_*` parameters, an anchor, or the secrets the person left out
 *    (`pageKeyOf`) — a link made on another device, or before this browser remembered.
 *
 * Undefined when neither finds one. The list API cannot search yet; an older link made elsewhere
 * with the very same address is still found by upsert when the person presses Shorten.
 */
export async function findPageLink(
  client: ShortlinksClient,
  pageUrl: string,
  memory: PageLinks = browserPageLinks,
): Promise<Link | undefined> {
  const pages = new Set([pageKeyOf(pageUrl), pageKeyOf(withoutParams(pageUrl, secretParamsOf(pageUrl)))]);
  const showsPage = (link: Link) => pages.has(pageKeyOf(link.destination_url));
  const remembered = await memory.linkOf(pageUrl);
  if (remembered) {
    const link = await client.links.get(remembered).catch((error: unknown) => {
      if (error instanceof ShortlinksError && error.code === 'LINK_NOT_FOUND') return undefined;
      throw error;
    });
    if (link && showsPage(link)) return link;
    await memory.forget(pageUrl);
  }
  const { links } = await client.links.list({ per_page: RECENT_LINKS });
  const found = links.find(showsPage);
  if (found) await memory.remember(pageUrl, found.id);
  return found;
}

/**
 * Shortens a page: `links.upsert` of `destination` (the page's address, or that address without
 * the secrets the person left out), so the same address twice gives the same link (with its
 * current tags, slug and clicks), and remembers the link for the page. The page's title is sent as
 * the link's title (the host name for a page without one). Upsert replaces the stored title with
 * it, so when the person had given the link a title of their own in this browser, that title is
 * put back. `domain`, when given, is the branded domain the link goes on (docs/domains.md).
 */
export async function createPageLink(
  client: ShortlinksClient,
  pageUrl: string,
  destination: string,
  pageTitle: string | undefined,
  memory: PageLinks = browserPageLinks,
  domain?: string,
): Promise<UpsertedLink> {
  const link = await client.links.upsert({
    title: linkTitleOf(pageTitle, destination),
    destination_url: destination,
    ...(domain ? { domain } : {}),
  });
  await rememberShortUrl(link.short_url);
  await memory.remember(pageUrl, link.id);
  if (link.created) return link;
  const own = await rememberedTitle(link.id);
  if (own === undefined || own === link.title) return link;
  return { ...(await client.links.update({ id: link.id, title: own })), created: false };
}

/**
 * Shortening at once (the keyboard shortcut and the context menu, where the person asked for a
 * link): the page's link when it has one ({@link findPageLink}), else a new one.
 */
export async function shortenPage(
  client: ShortlinksClient,
  url: string,
  pageTitle: string | undefined,
  memory: PageLinks = browserPageLinks,
): Promise<UpsertedLink> {
  const found = await findPageLink(client, url, memory);
  if (found) return { ...found, created: false };
  return createPageLink(client, url, url, pageTitle, memory);
}

/** The popup's Undo: deletes the link it has just created, and forgets it for the page. */
export async function undoPageLink(
  client: ShortlinksClient,
  pageUrl: string,
  link: Link,
  memory: PageLinks = browserPageLinks,
): Promise<void> {
  await client.links.delete(link.id);
  await memory.forget(pageUrl);
}
