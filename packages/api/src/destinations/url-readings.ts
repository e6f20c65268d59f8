import { domainToASCII } from 'node:url';
import fastUri from 'fast-uri';
import ipaddr from 'ipaddr.js';

/**
 * fast-uri's own http(s) handler hands non-ASCII and numeric hosts to the WHATWG parser, which
 * would hide exactly the differences looked for here; under a scheme it has no handler for, it
 * reads the URL as RFC 3986 alone says.
 */
const PLAIN_RFC_3986 = { scheme: 'x-rfc3986' } as const;

/**
 * Why browsers and other URL clients would read this URL differently, or undefined when they
 * agree on its host and neither sees a user name.
 *
 * Browsers follow the WHATWG URL standard (`url`, already parsed from `raw`); curl, crawlers, link
 * unfurlers and webhook clients follow RFC 3986. They disagree on backslashes (WHATWG reads `\` as
 * `/` in http(s) URLs), on extra slashes before the host, on IPv4 addresses not written as four
 * decimal numbers (`0x08080808` is a name to RFC 3986) and on percent-encoded hosts. A URL stored
 * as sent must mean one host to all of them, so such URLs are refused, and the message shows the
 * form browsers read, for the sender to send instead if it is what they meant.
 */
export function readingsDisagree(raw: string, url: URL): string | undefined {
  const instead = `browsers would open ${url.href}: send that form if it is what you mean`;
  // Before the query, WHATWG turns `\` into `/`; in the query and fragment both keep it.
  const beforeQuery = raw.split(/[?#]/, 1)[0] ?? raw;
  if (beforeQuery.includes('\\')) {
    return `must not contain a backslash (\\) before its query: browsers read it as "/", other clients do not; ${instead}`;
  }
  // A "%" that starts no escape is common in queries (`?off=50%`) and harmless to the host:
  // escaped here so RFC 3986's complaint about it does not hide the reading of the host.
  const rfc = fastUri.parse(raw.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'), PLAIN_RFC_3986);
  if (rfc.error) return `is read differently by browsers and other clients (${rfc.error}); ${instead}`;
  if (rfc.userinfo !== undefined) return 'must not contain a user name or password (nothing before "@" in the host part)';
  if (!rfc.host) return `has no host right after "//" for most clients (browsers skip the extra "/"); ${instead}`;
  if (authorityOf(raw).includes('%')) return `must not percent-encode its host; ${instead}`;
  if (!sameHost(rfc.host, url.hostname)) {
    return `names the host "${rfc.host}" for most clients but "${url.hostname}" for browsers; ${instead}`;
  }
  return undefined;
}

/** The authority as written: after `scheme://`, up to the first `/`, `?` or `#` (RFC 3986 §3.2). */
function authorityOf(raw: string): string {
  const start = raw.indexOf('//') + 2;
  const end = raw.slice(start).search(/[/?#]/);
  return end === -1 ? raw.slice(start) : raw.slice(start, start + end);
}

/**
 * Whether the RFC 3986 host (lower case, IPv6 without brackets, non-ASCII percent-encoded) names
 * what WHATWG serialised. A non-ASCII name is an IRI host, which RFC 3987 maps through IDNA as
 * browsers do.
 */
function sameHost(rfcHost: string, whatwgHost: string): boolean {
  if (whatwgHost.startsWith('[')) {
    return (
      ipaddr.IPv6.isValid(rfcHost) &&
      ipaddr.parse(rfcHost).toNormalizedString() === ipaddr.parse(whatwgHost.slice(1, -1)).toNormalizedString()
    );
  }
  if (!rfcHost.includes('%')) return rfcHost.toLowerCase() === whatwgHost;
  try {
    return domainToASCII(decodeURIComponent(rfcHost)) === whatwgHost;
  } catch {
    return false;
  }
}
