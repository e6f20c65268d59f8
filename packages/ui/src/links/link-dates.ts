import type { Link } from '@shortlinks/client';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** An instant in the reader's locale and time zone: "12 Mar 2026, 14:30", or the day alone. */
export function whenText(ms: number, precision: 'date' | 'minute' = 'minute'): string {
  return (precision === 'date' ? dateFormat : dateTimeFormat).format(ms);
}

/** A short URL without its scheme, as lists show it: `sho.rt/spring`. */
export function shortUrlText(shortUrl: string): string {
  return shortUrl.replace(/^https?:\/\//, '');
}

/**
 * Whether a link has expired at `now`, its expiry in words with the time (a link can expire at any
 * minute), and what a visit gets now. As the redirects count it: expired from `expires_at` on,
 * when a visit goes to the fallback address, or gets `410 Gone` without one.
 */
export function expiryOf(
  link: Pick<Link, 'expires_at' | 'expiration_url'>,
  now: number,
): { expired: boolean; text: string; visits: string } | undefined {
  if (link.expires_at === undefined) return undefined;
  const expired = now >= link.expires_at;
  const when = whenText(link.expires_at);
  const fallback = link.expiration_url ? `go to ${hostOf(link.expiration_url)}` : 'find the link gone (410)';
  return {
    expired,
    text: `${expired ? 'Expired' : 'Expires'} ${when}`,
    visits: `${expired ? 'Visits now' : 'Then visits'} ${fallback}.`,
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
