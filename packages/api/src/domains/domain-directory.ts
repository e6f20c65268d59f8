import type { Orm } from '@shortlinks/db';
import { reader } from '../database/database.ts';

/** A verified domain this server serves: what a visit of its host needs, from memory. */
export interface ServedDomain {
  id: string;
  name: string;
  accountId: string;
  rootRedirectUrl: string | null;
  notFoundUrl: string | null;
}

/** What a Host header names: the server's own domain (null), a served domain, or neither (undefined). */
export type HostDomain = ServedDomain | null | undefined;

const IPV4 = /^[0-9.]+$/;

/**
 * Every branded domain, in memory, so a visit finds its host's domain with one map look-up
 * (docs/domains.md, docs/performance.md). Loaded at start and again whenever a domain changes:
 * domains are announced on `shortlinks_domain_changes` (cache-coherence.ts), and the process that
 * changed one reloads before it answers. Domains are few (people add them by hand), so a reload
 * reads them all.
 */
export class DomainDirectory {
  readonly #orm: Orm;
  readonly #shortDomainHost: string;
  /** Verified (serving) domains by name. */
  #served = new Map<string, ServedDomain>();
  /** Every domain's name by id (a domain's name never changes), for links' short URLs. */
  #names = new Map<string, string>();
  /** Accounts with a verified domain: only those may have a default domain to look up. */
  #accounts = new Set<string>();
  #loading: Promise<void> | undefined;
  #again = false;

  constructor(orm: Orm, shortDomainHost: string) {
    this.#orm = orm;
    this.#shortDomainHost = shortDomainHost;
  }

  /**
   * Reads every domain again. A reload asked for while one runs runs once more after it, so a
   * change announced meanwhile is never missed; every caller waits for a read that began after it asked.
   */
  reload(): Promise<void> {
    if (this.#loading) {
      this.#again = true;
      return this.#loading;
    }
    this.#loading = (async () => {
      try {
        do {
          this.#again = false;
          await this.#read();
        } while (this.#again);
      } finally {
        this.#loading = undefined;
      }
    })();
    return this.#loading;
  }

  /** Reads every domain now; until the first read succeeds, no branded domain is served. */
  async #read(): Promise<void> {
    const rows = await reader(this.#orm)
      .selectFrom('domain')
      .select(['id', 'name', 'account_id', 'verified_at', 'root_redirect_url', 'not_found_url'])
      .execute();
    const served = new Map<string, ServedDomain>();
    const names = new Map<string, string>();
    const accounts = new Set<string>();
    for (const row of rows) {
      names.set(row.id, row.name);
      if (row.verified_at === null) continue;
      accounts.add(row.account_id);
      served.set(row.name, {
        id: row.id,
        name: row.name,
        accountId: row.account_id,
        rootRedirectUrl: row.root_redirect_url,
        notFoundUrl: row.not_found_url,
      });
    }
    this.#served = served;
    this.#names = names;
    this.#accounts = accounts;
  }

  /** A reload failed in the background (an announcement's): kept until the next one. */
  changed(log?: (message: string) => void): void {
    this.reload().catch((error: unknown) => log?.(`could not read the domains again: ${(error as Error).message}`));
  }

  /**
   * The domain a visit's `Host` header names: a verified domain; the server's own (null) for
   * SHORT_DOMAIN's host, an address or localhost (how the server is reached directly: a health
   * check, a proxy that does not pass the host) or no header; anything else is neither
   * (undefined), and nothing is looked up for it.
   */
  hostDomain(hostHeader: string | undefined): HostDomain {
    if (hostHeader === undefined || hostHeader === '') return null;
    // IPv6 literal, `[::1]:3000`: an address.
    if (hostHeader.charCodeAt(0) === 91) return null;
    const colon = hostHeader.indexOf(':');
    let host = colon === -1 ? hostHeader : hostHeader.slice(0, colon);
    let served = this.#served.get(host);
    if (served !== undefined) return served;
    host = host.toLowerCase();
    if (host.endsWith('.')) host = host.replace(/\.+$/, '');
    served = this.#served.get(host);
    if (served !== undefined) return served;
    if (host === this.#shortDomainHost || host === 'localhost' || host.endsWith('.localhost') || IPV4.test(host)) return null;
    return undefined;
  }

  /** The verified domain named so (lower case), if this server serves it. */
  served(name: string): ServedDomain | undefined {
    return this.#served.get(name);
  }

  /** Whether the account has a verified domain, as far as this process has heard. */
  hasVerifiedDomain(accountId: string): boolean {
    return this.#accounts.has(accountId);
  }

  /** The name of a domain by id, when known. */
  nameOf(id: string): string | undefined {
    return this.#names.get(id);
  }

  /** Remembers a domain's name this process just read (a link written on it before the announcement came). */
  remember(id: string, name: string): void {
    this.#names.set(id, name);
  }

  /** Whether a URL's host (lower case, no trailing dot) is one of this server's short domains: refused as a destination. */
  isShortDomain(host: string): boolean {
    return host === this.#shortDomainHost || this.#served.has(host);
  }
}
