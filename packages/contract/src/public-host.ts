import ipaddr from 'ipaddr.js';
import { isPrivateName } from './special-use-names.ts';

/** Why a host leads nowhere everyone on the internet reaches (see {@link privateHostProblem}). */
export type PrivateHost = 'no-host' | 'private-address' | 'private-name' | 'single-label';

/**
 * Why a short link could not lead to this host for everyone, or undefined when it can: an empty
 * host, an IP address outside global unicast, a private or special-use name, or a single-label
 * name (`http://intranet/`). The server refuses such destinations, and the extension does not
 * offer to shorten such pages: one rule for both. `host` is as the WHATWG URL parser gives it
 * (`url.hostname`: lower case, IPv4 in any spelling already canonical, IPv6 in brackets); a
 * trailing dot is ignored.
 */
export function privateHostProblem(hostname: string): PrivateHost | undefined {
  const host = hostname.toLowerCase().replace(/\.+$/, '');
  if (host === '') return 'no-host';
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  if (mayBeAddress(literal) && ipaddr.isValid(literal)) return isPublicAddress(ipaddr.parse(literal)) ? undefined : 'private-address';
  if (isPrivateName(host)) return 'private-name';
  if (!host.includes('.')) return 'single-label';
  return undefined;
}

/**
 * Whether ipaddr.js could read the text as an address: IPv6 has a colon (a zone id after `%` may
 * then hold anything), and IPv4 in every spelling it reads is digits, dots and hexadecimal (`0x`).
 * Asking it of every name costs more than the rest of a destination's checks together
 * (docs/performance.md, "Creates"), and almost every destination is a name.
 */
function mayBeAddress(text: string): boolean {
  return text.includes(':') || /^[0-9a-fx.]*$/.test(text);
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
