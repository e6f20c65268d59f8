import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { privateHostProblem } from '@shortlinks/contract';
import { validationError } from '../errors.ts';

/** Suffixes that are never a public DNS name beyond the destinations' private ones (special-use-names.ts). */
const NOT_IN_PUBLIC_DNS = ['onion', 'alt'];

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * The name a branded domain is stored under, or a 422 on `name` (docs/domains.md): lower case,
 * IDNA to punycode (`bücher.example` → `xn--bcher-kva.example`), no trailing dot, plain DNS
 * labels, no IP literal, no private or special-use suffix (the destinations' rule,
 * `privateHostProblem`), and neither the server's own short domain nor a name under it.
 */
export function domainNameOf(sent: string, shortDomainHost: string, field = 'name'): string {
  const trimmed = sent.trim().replace(/\.$/, '');
  if (trimmed === '') throw validationError(field, `${field} must not be empty`);
  if (/[/:@?#\s[\]\\]/.test(trimmed))
    throw validationError(field, `${field} must be a domain name such as go.acme.example, without scheme, port or path`);
  if (isIP(trimmed) !== 0 || /^[0-9.]+$/.test(trimmed)) throw validationError(field, `${field} must be a domain name, not an IP address`);
  const ascii = domainToASCII(trimmed.toLowerCase());
  if (ascii === '') throw validationError(field, `${field} is not a valid domain name`);
  if (isIP(ascii) !== 0) throw validationError(field, `${field} must be a domain name, not an IP address`);
  if (ascii.length > 253) throw validationError(field, `${field} must be at most 253 characters once in ASCII form`);
  const labels = ascii.split('.');
  if (!labels.every((label) => LABEL.test(label))) {
    throw validationError(field, `${field} may hold only letters, digits and "-" in each label, none starting or ending with "-"`);
  }
  const problem = privateHostProblem(ascii);
  if (problem === 'single-label') throw validationError(field, `${field} must be a fully qualified domain name such as go.acme.example`);
  if (problem !== undefined || NOT_IN_PUBLIC_DNS.some((suffix) => ascii === suffix || ascii.endsWith(`.${suffix}`))) {
    throw validationError(field, `${field} must not be localhost, a private network name or a special-use name`);
  }
  if (ascii === shortDomainHost || ascii.endsWith(`.${shortDomainHost}`)) {
    throw validationError(field, `${field} must not be the server's own short domain or a subdomain of it`);
  }
  return ascii;
}

/** The DNS name of the TXT record that proves a domain is the account's. */
export function verificationRecordName(domain: string): string {
  return `_shortlinks.${domain}`;
}

/** The TXT value that proves it, from the domain's token. */
export function verificationRecordValue(token: string): string {
  return `shortlinks-verify=${token}`;
}
