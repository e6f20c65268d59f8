import fastUri from 'fast-uri';
import { comparableHost } from './reputation-chain.ts';

/**
 * How URL-prefix entries of the denylist are compared (docs/security.md): by host and port, then
 * by path and query as a server most likely reads them, ignoring the scheme, the default port,
 * escapes of unreserved characters (`%70` is `p`), runs of `/`, dot segments and letter case.
 * Case is ignored because many servers and CDNs serve paths case-insensitively, and a look-alike
 * path refused by mistake costs little next to a phishing kit let through. The fragment never
 * reaches a server and is left out.
 */

/** The host and port a prefix is filed under, as `denylist_entry_prefix_authority_idx` reads it from a stored entry. */
export function prefixAuthority(url: URL): string {
  return url.port ? `${comparableHost(url)}:${url.port}` : comparableHost(url);
}

/** The form an entry (a WHATWG-serialised URL) is compared in. */
export function entryKey(entry: string): string {
  const url = new URL(entry);
  return prefixAuthority(url) + pathKey(url.pathname) + queryKey(url.search);
}

/**
 * The forms a destination is compared in: its path as browsers resolve it (dot segments first,
 * so `/a//../b` is `/a/b`), and as written with repeated slashes merged first (`/b`, as servers
 * that merge slashes read it). A prefix matching either refuses the destination.
 */
export function destinationKeys(destination: string): string[] {
  const url = new URL(destination);
  const head = prefixAuthority(url);
  const query = queryKey(url.search);
  const asWritten = fastUri.parse(destination, { scheme: 'x-rfc3986' }).path || '/';
  return [...new Set([head + pathKey(url.pathname) + query, head + pathKey(asWritten) + query])];
}

/** A path with unreserved escapes decoded, runs of `/` merged, dot segments resolved, in lower case. */
function pathKey(path: string): string {
  const merged = decodeUnreserved(path).replace(/\/{2,}/g, '/');
  return new URL(merged.startsWith('/') ? merged : `/${merged}`, 'http://h').pathname.toLowerCase();
}

function queryKey(search: string): string {
  return decodeUnreserved(search).toLowerCase();
}

/** Percent-escapes of unreserved characters (RFC 3986 §2.3: ALPHA / DIGIT / - . _ ~) decoded; others kept. */
function decodeUnreserved(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (escaped, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(char) ? char : escaped;
  });
}
