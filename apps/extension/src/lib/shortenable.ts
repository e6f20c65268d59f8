import { privateHostProblem } from '@shortlinks/contract/rules';

/**
 * Why the page at `url` cannot be shortened, in words for the popup, or undefined when it can.
 * Checked before any request so that `chrome://` pages, local files, the short domain itself and
 * private addresses get a clear message instead of a server error.
 */
export function whyNotShortenable(url: string | undefined, ownOrigins: readonly string[]): string | undefined {
  if (!url) return 'This tab has no address to shorten.';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'This tab has no address to shorten.';
  }
  if (parsed.protocol === 'file:') return 'Local files cannot be shortened: a short link must lead to a page on the web.';
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return 'Browser pages cannot be shortened: only web pages (http:// or https://) can.';
  }
  if (ownOrigins.some((origin) => sameHost(origin, parsed))) return 'This is already a short link (or your Shortlinks server).';
  // The server's own rule for destinations (packages/contract), checked early, in the popup's words.
  const problem = privateHostProblem(parsed.hostname);
  if (problem === 'private-address') return 'Pages on a private or local address cannot be shortened: nobody else could open them.';
  if (problem) return 'Pages on a private or local network cannot be shortened: nobody else could open them.';
  return undefined;
}

function sameHost(origin: string, url: URL): boolean {
  try {
    return new URL(origin).hostname.toLowerCase() === url.hostname.toLowerCase();
  } catch {
    return false;
  }
}
