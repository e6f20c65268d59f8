import { domainToUnicode } from 'node:url';
import unhomoglyph from 'unhomoglyph';

/**
 * The confusables skeleton of UTS #39 §4 (`skeleton(X) = NFD(map(NFD(X)))`, with the mapping of
 * Unicode's confusables.txt as the unhomoglyph package ships it). Two strings with one skeleton
 * look alike; a skeleton is for comparing, never for showing.
 */
export function skeleton(text: string): string {
  return unhomoglyph(text.normalize('NFD')).normalize('NFD');
}

/**
 * A host as look-alikes are compared: its Unicode form (hosts arrive as punycode, `xn--…`), then
 * its skeleton, in lower case, so that `0` (whose skeleton is `O`) reads as `o` too.
 */
function lookAlikeKey(asciiHost: string): string {
  return skeleton(domainToUnicode(asciiHost) || asciiHost).toLowerCase();
}

export type ShortDomainRelation = 'itself' | 'subdomain' | 'look-alike';

/**
 * How a destination host leads back to the short domain, if it does: the short domain itself, a
 * subdomain of it (which loops when the operator serves that name too), or a name that looks like
 * it or like one of its subdomains (`ѕho.rt` with a Cyrillic ѕ). Both hosts are lower-case ASCII
 * without trailing dots; a short domain that is an IP address has no subdomains or look-alikes.
 */
export function relationToShortDomain(host: string, shortHost: string): ShortDomainRelation | undefined {
  if (host === shortHost) return 'itself';
  if (shortHost.startsWith('[') || /^[\d.]+$/.test(shortHost)) return undefined;
  if (host.endsWith(`.${shortHost}`)) return 'subdomain';
  const key = lookAlikeKey(host);
  const shortKey = lookAlikeKey(shortHost);
  return key === shortKey || key.endsWith(`.${shortKey}`) ? 'look-alike' : undefined;
}
