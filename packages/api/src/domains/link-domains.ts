import { domainToASCII } from 'node:url';
import type { Db } from '../database/database.ts';
import { validationError } from '../errors.ts';
import type { DomainDirectory } from './domain-directory.ts';

/** A link's domain as its row holds it: the branded domain's id, or null for the server's own. */
export type LinkDomainId = string | null;

/** A domain name as sent in a link's `domain` or the list's filter: lower case, ASCII, no trailing dot; '' when it cannot be one. */
export function sentDomainName(sent: string): string {
  return domainToASCII(sent.trim().toLowerCase().replace(/\.$/, ''));
}

/**
 * Which domain a link is written on (docs/domains.md): `domain` names one of the account's
 * verified domains, or the server's own (SHORT_DOMAIN's host); omitted, the account's default
 * domain while it is verified, else the server's. Anything else is a 422 on `domain`.
 */
export class LinkDomains {
  readonly serverHost: string;
  readonly #directory: DomainDirectory;

  constructor(serverHost: string, directory: DomainDirectory) {
    this.serverHost = serverHost;
    this.#directory = directory;
  }

  /**
   * The domain of a new link, read in the writing transaction (`known`: what this transaction
   * already read, by name, '' for the default). Inserting the link then holds the domain's key
   * until commit, so the domain cannot be deleted under it (DELETE /domains locks it first).
   */
  async forNewLink(db: Db, accountId: string, sent: string | undefined, known: Map<string, LinkDomainId>): Promise<LinkDomainId> {
    const name = sent === undefined ? '' : sentDomainName(sent);
    if (sent !== undefined && name === this.serverHost) return null;
    const cached = known.get(name);
    if (cached !== undefined) return cached;
    // Most accounts have no branded domain: no query for their default.
    if (sent === undefined && !this.#directory.hasVerifiedDomain(accountId)) return null;
    if (sent !== undefined && name === '') throw validationError('domain', 'domain is not a valid domain name');
    let query = db.selectFrom('domain').select(['id', 'name']).where('account_id', '=', accountId).where('verified_at', 'is not', null);
    query = sent === undefined ? query.where('is_default', '=', true) : query.where('name', '=', name);
    const row = await query.executeTakeFirst();
    if (!row && sent !== undefined) {
      throw validationError('domain', `domain must be one of the workspace's verified domains or ${this.serverHost}; ${name} is not`);
    }
    if (row) this.#directory.remember(row.id, row.name);
    const domainId = row?.id ?? null;
    known.set(name, domainId);
    return domainId;
  }

  /**
   * The domain of a new link when it is known without reading the database: the server's own
   * (null) for `domain` naming it, or omitted by an account with no verified domain (as far as
   * this process has heard, as {@link forNewLink} decides too); undefined when it needs a read.
   */
  knownForNewLink(accountId: string, sent: string | undefined): LinkDomainId | undefined {
    if (sent === undefined) return this.#directory.hasVerifiedDomain(accountId) ? undefined : null;
    return sentDomainName(sent) === this.serverHost ? null : undefined;
  }

  /**
   * The list's `domain` filter as `coalesce(domain_id, '')` holds it: '' for the server's own
   * domain, else the id of one of the account's domains (verified or not: its links are listed).
   */
  async filterKey(db: Db, accountId: string, sent: string): Promise<string> {
    const name = sentDomainName(sent);
    if (name === this.serverHost) return '';
    const row =
      name === ''
        ? undefined
        : await db.selectFrom('domain').select('id').where('account_id', '=', accountId).where('name', '=', name).executeTakeFirst();
    if (!row) throw validationError('domain', `domain must be one of the workspace's domains or ${this.serverHost}`);
    return row.id;
  }
}
