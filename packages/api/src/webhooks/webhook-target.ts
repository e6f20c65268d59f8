import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { privateHostProblem } from '@shortlinks/contract';
import { destinationProblem } from '../destinations/destination-policy.ts';
import { relationToShortDomain } from '../destinations/look-alikes.ts';

/**
 * Why a webhook URL is refused, or undefined: the destination rules of links (no private or
 * loopback address, no private name, not the short domain). `allowPrivate`
 * (WEBHOOK_ALLOW_PRIVATE_TARGETS) lifts the address and name rules only: a webhook still never
 * calls the short domain itself.
 */
export function webhookUrlProblem(rawUrl: string, shortDomainHost: string, allowPrivate: boolean): string | undefined {
  if (!allowPrivate) return destinationProblem(rawUrl, shortDomainHost);
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return 'must be an absolute http:// or https:// URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an absolute http:// or https:// URL';
  if (url.username !== '' || url.password !== '') return 'must not contain a user name or password';
  const host = url.hostname.toLowerCase().replace(/\.+$/, '');
  return relationToShortDomain(host, shortDomainHost) ? 'must not point to the short-link domain' : undefined;
}

/** The refusal of a connection to a private address (checked when connecting: DNS may have changed). */
export class PrivateAddressRefused extends Error {
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, a private, loopback or reserved address: refused`);
    this.name = 'PrivateAddressRefused';
  }
}

/**
 * A `lookup` for the HTTP request that refuses every private address a name resolves to, so a
 * name that passed the URL rule and was pointed at the internal network since (DNS rebinding)
 * reaches nothing: the address checked is the address connected to.
 */
export function publicOnlyLookup(): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true } as LookupAllOptions, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.find((entry) => privateHostProblem(entry.address.includes(':') ? `[${entry.address}]` : entry.address));
      if (refused) return callback(new PrivateAddressRefused(hostname, refused.address), '', 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

/** Why an address literal in a URL may not be connected to (a lookup is not asked for one), or undefined. */
export function literalAddressProblem(hostname: string): string | undefined {
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  if (!/^[\d.]+$/.test(host) && !host.includes(':')) return undefined;
  return privateHostProblem(hostname) === 'private-address' ? `${hostname} is a private, loopback or reserved address: refused` : undefined;
}
