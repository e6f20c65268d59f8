import { type PrivateHost, privateHostProblem } from '@shortlinks/contract';
import { relationToShortDomain } from './look-alikes.ts';
import { readingsDisagree } from './url-readings.ts';

const SHORT_DOMAIN_PROBLEM = {
  itself: 'must not point to the short-link domain itself',
  subdomain: 'must not point to a subdomain of the short-link domain',
  'look-alike': 'must not point to a look-alike of the short-link domain',
} as const;

const PRIVATE_HOST_PROBLEM: Record<PrivateHost, string> = {
  'no-host': 'must have a host',
  'private-address': 'must not point to a private, loopback or reserved address',
  'private-name': 'must not point to localhost, a private network name or a special-use name',
  'single-label': 'must use a fully qualified host name',
};

/**
 * Why a destination (or expiration) URL, as the client sent it, is refused, or undefined when it
 * may be used. The URL has already passed the syntax check (absolute http/https).
 *
 * The host rules judge the host browsers read (WHATWG), in which literal IP hosts of any spelling
 * are already canonical (`http://2130706433/`, `http://0x7f.1/` and `http://[::ffff:127.0.0.1]/`
 * all reach here as the address they are). Then the URL must mean that same host, without a user
 * name, to every other client too (url-readings.ts), because it may be stored as sent.
 */
export function destinationProblem(rawUrl: string, shortDomainHost: string): string | undefined {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return 'must be an absolute http:// or https:// URL';
  }
  // The request schema allows only http(s) already; checked again so no other caller can slip past.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an absolute http:// or https:// URL';
  if (url.username !== '' || url.password !== '') return 'must not contain a user name or password';
  return hostProblem(url.hostname.toLowerCase().replace(/\.+$/, ''), shortDomainHost) ?? readingsDisagree(rawUrl, url);
}

/**
 * Why a host (lower case, no trailing dot) is refused: private, special-use, or leading back to us.
 * A local host is named as such even when the short domain is local too (`localhost` on a plain
 * install): an import of `http://localhost:8080/x` is refused for being local, the rule that
 * would hold on any server, not for being "the short-link domain itself".
 */
function hostProblem(host: string, shortDomainHost: string): string | undefined {
  if (host === '') return PRIVATE_HOST_PROBLEM['no-host'];
  const problem = privateHostProblem(host);
  if (problem) return PRIVATE_HOST_PROBLEM[problem];
  const relation = relationToShortDomain(host, shortDomainHost);
  return relation && SHORT_DOMAIN_PROBLEM[relation];
}

/** The host of the short domain, lower-cased and without port, for comparisons. */
export function hostOf(origin: string): string {
  return new URL(origin).hostname.toLowerCase().replace(/\.+$/, '');
}
