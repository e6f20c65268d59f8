/**
 * Name suffixes that only mean something inside a private network, or never resolve on the public
 * internet, so a public short link must not point there (docs/security.md lists them with why).
 * A suffix covers itself and every name under it, compared label by label.
 *
 * Deliberately absent: `.example` and `.test` (RFC 6761 reserves them for documentation and
 * testing; they lead nowhere private), `.onion` (RFC 7686: Tor Browser reaches it through Tor, not
 * into the visitor's network) and `.alt` (RFC 9476: names of other, non-DNS namespaces).
 */
export const PRIVATE_NAME_SUFFIXES: readonly string[] = [
  // RFC 6761 §6.3: always the local host. RFC 6761 §6.4: guaranteed never to resolve.
  'localhost',
  'invalid',
  // RFC 6762: multicast DNS on the local link (Kubernetes' cluster.local is under it too).
  'local',
  // RFC 6762 Appendix G: names in common private use that RFC 6762 recommends not to use.
  'intranet',
  'internal', // reserved by ICANN for private use (2024)
  'private',
  'corp',
  'home',
  'lan',
  // ICANN's name-collision decision: delegated never, because of their wide internal use.
  'mail',
  // Common resolver defaults and cluster-internal names.
  'localdomain',
  'svc', // Kubernetes services: name.namespace.svc
  // RFC 3172: infrastructure, no web hosts; includes home.arpa (RFC 8375, home networks) and the
  // reverse-DNS zones in-addr.arpa and ip6.arpa.
  'arpa',
];

/** Whether a host (lower case, no trailing dot) is a private or special-use name. */
export function isPrivateName(host: string): boolean {
  return PRIVATE_NAME_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`));
}
