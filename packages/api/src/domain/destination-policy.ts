import ipaddr from 'ipaddr.js';

/**
 * Host names that only mean something inside a private network (RFC 6761, RFC 6762, RFC 8375,
 * and common internal suffixes). A public short link must not point there.
 */
const PRIVATE_NAME_SUFFIXES = ['localhost', 'local', 'internal', 'intranet', 'lan', 'home.arpa', 'localdomain'];

/**
 * Why a destination (or expiration) URL is refused, or undefined when it may be used. The URL
 * has already passed the syntax check (absolute http/https). Literal IP hosts of any spelling
 * are caught because the WHATWG URL parser normalises them first (`http://2130706433/`,
 * `http://0x7f.1/` and `http://[::ffff:127.0.0.1]/` all reach here in canonical form).
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
  const host = url.hostname.toLowerCase().replace(/\.+$/, '');
  if (host === '') return 'must have a host';
  if (host === shortDomainHost) return 'must not point to the short-link domain itself';

  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  if (ipaddr.isValid(literal)) {
    return isPublicAddress(ipaddr.parse(literal)) ? undefined : 'must not point to a private, loopback or reserved address';
  }
  if (PRIVATE_NAME_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`))) {
    return 'must not point to localhost or a private network name';
  }
  if (!host.includes('.')) return 'must use a fully qualified host name';
  return undefined;
}

function isPublicAddress(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() === 'ipv6') {
    const v6 = address as ipaddr.IPv6;
    // IPv4 written inside IPv6 (mapped ::ffff:a.b.c.d, or compatible ::a.b.c.d) is judged as IPv4.
    if (v6.isIPv4MappedAddress()) return isPublicAddress(v6.toIPv4Address());
    const parts = v6.parts;
    if (parts.slice(0, 6).every((part) => part === 0)) return false; // ::/96: unspecified, loopback, IPv4-compatible
  }
  // Only plain global unicast is public; every special range (private, loopback, link-local,
  // CGNAT, multicast, reserved, NAT64, 6to4, Teredo, ...) is refused.
  return address.range() === 'unicast';
}

/** The host of the short domain, lower-cased and without port, for comparisons. */
export function hostOf(origin: string): string {
  return new URL(origin).hostname.toLowerCase().replace(/\.+$/, '');
}
