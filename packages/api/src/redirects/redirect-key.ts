/**
 * The key of a slug on a domain in the redirect cache and in the link change announcements
 * (Migration20261127112800_domains): the slug itself on the server's own domain, as before, and
 * `dom_…/slug` on a branded one. A slug never holds `/`, so no key of one domain is another's.
 */
export function redirectKey(domainId: string | null, slug: string): string {
  return domainId === null ? slug : `${domainId}/${slug}`;
}

/** The domain (null: the server's own) and slug a key names. */
export function parseRedirectKey(key: string): { domainId: string | null; slug: string } {
  const slash = key.indexOf('/');
  return slash === -1 ? { domainId: null, slug: key } : { domainId: key.slice(0, slash), slug: key.slice(slash + 1) };
}
